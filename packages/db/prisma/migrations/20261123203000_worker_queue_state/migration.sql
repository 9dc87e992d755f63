-- A worker's heartbeat carries its own view of its queue (Redis) connection, so /api/health can
-- report a worker that lost Redis (and takes no jobs) as unhealthy although it reaches Postgres.
ALTER TABLE "Worker" ADD COLUMN "queueConnected" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "Worker" ADD COLUMN "queueStateAt" TIMESTAMPTZ(3);
