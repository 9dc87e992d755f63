import pkg from '../package.json' with { type: 'json' };

/** The CLI's version: package.json's, inlined into the bundle when it is built. */
export const VERSION: string = pkg.version;
