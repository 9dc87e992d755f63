import base from '../../eslint.config.mjs';
import globals from 'globals';

export default [
  ...base,
  {
    files: ['src/**/*.tsx', 'src/app/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
];
