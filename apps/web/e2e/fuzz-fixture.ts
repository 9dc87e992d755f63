// The fuzz phase's fixture (scripts/fuzz-rest.sh), run with tsx:
//   fuzz-fixture.ts create           a new team with an owner and a member, and the member's
//                                    API token (runs:read, runs:write); prints `<teamId> <token>`
//   fuzz-fixture.ts cleanup <teamId> cancels every run the fuzzer launched in that team, revokes
//                                    its tokens; prints how many runs it canceled
import { randomBytes } from 'node:crypto';
import { createRunQueue, producerConnection, workerConnection } from '@poolbench/queue';
import { cancelRun } from '@poolbench/runs';
import { createApiToken } from '../src/server/services/api-tokens/create-api-token';
import { closeE2eDb, e2eDb } from './synthetic';

const [command, teamArg] = process.argv.slice(2);
const db = e2eDb();

if (command === 'create') {
  const tag = `fuzz-${randomBytes(4).toString('hex')}`;
  const team = await db.team.create({ data: { name: `Fuzz ${tag}`, slug: tag } });
  const users = [];
  for (const role of ['owner', 'member'] as const) {
    const id = `${tag}-${role}`;
    await db.user.create({
      data: { id, name: `Fuzz ${role}`, email: `${id}@example.test`, emailVerified: true },
    });
    await db.membership.create({ data: { teamId: team.id, userId: id, role } });
    users.push(id);
  }
  const { token } = await createApiToken(db, {
    teamId: team.id,
    userId: users[1]!,
    name: tag,
    scopes: ['runs:read', 'runs:write'],
    expiresInDays: 1,
  });
  console.log(`${team.id} ${token}`);
} else if (command === 'cleanup' && teamArg) {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:63799';
  const redis = producerConnection(url);
  const queueConnection = workerConnection(url);
  const queue = createRunQueue(queueConnection);
  const runs = await db.run.findMany({
    where: { teamId: teamArg, finishedAt: null },
    select: { id: true },
  });
  for (const r of runs) await cancelRun({ db, queue, redis }, teamArg, r.id);
  await db.apiToken.updateMany({ where: { teamId: teamArg }, data: { revokedAt: new Date() } });
  console.log(`canceled ${runs.length} runs`);
  await queue.close();
  queueConnection.disconnect();
  redis.disconnect();
} else {
  console.error('usage: fuzz-fixture.ts create | cleanup <teamId>');
  process.exitCode = 2;
}
await closeE2eDb();
