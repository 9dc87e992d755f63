import { db } from '../db';
import { redis } from '../redis';
import { runQueue } from '../queue';
import { secretKey } from '../secret-key';
import { getSession } from '../session';
import type { Context } from './context';

export async function createContext(opts: { headers: Headers }): Promise<Context> {
  const s = await getSession(opts.headers);
  return { db, redis, runQueue, secretKey, user: s?.user ?? null, sessionId: s?.sessionId ?? null, activeTeamId: s?.activeTeamId ?? null };
}
