import { secretKeyFromEnv } from '@poolbench/db';
import { env } from './env';

export const secretKey = (): Buffer =>
  secretKeyFromEnv({
    POOLBENCH_SECRET_KEY: env.POOLBENCH_SECRET_KEY,
  } as unknown as NodeJS.ProcessEnv);
