-- Per-second load rows and resource samples, partitioned by the month of their timestamp (UTC).
-- A year of schedules is tens of millions of rows: monthly partitions keep each index small, let
-- retention drop a whole month at once instead of deleting row by row, and let the planner skip
-- months a query cannot touch. The primary key gains "ts" because Postgres requires the partition
-- key in every unique constraint; a second's ts is fixed by the run's start, so (runId, second,
-- segment|instance) stays unique in practice.
-- Rows outside every monthly partition land in a DEFAULT partition, so an insert never fails; the
-- function below moves them out when their month's partition is created.

-- One place that makes a month's partition (used here and by the maintenance task in
-- packages/db/src/partitions.ts, which keeps the current and next months ready).
CREATE OR REPLACE FUNCTION poolbench_ensure_month_partition(parent text, at timestamptz) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  m timestamptz := date_trunc('month', at, 'UTC');
  n timestamptz := m + interval '1 month';
  part text := parent || '_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM');
  def text := parent || '_default';
BEGIN
  -- Serialise makers of partitions of this parent (web and every worker run the maintenance).
  PERFORM pg_advisory_xact_lock(hashtext('poolbench_partition:' || parent));
  IF to_regclass(format('%I', part)) IS NOT NULL THEN
    RETURN part;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', part, parent);
  IF to_regclass(format('%I', def)) IS NOT NULL THEN
    EXECUTE format('WITH moved AS (DELETE FROM %I WHERE "ts" >= $1 AND "ts" < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved', def, part)
      USING m, n;
  END IF;
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, part, m, n);
  RETURN part;
END $$;

-- RunSecond
ALTER TABLE "RunSecond" RENAME TO "RunSecond_unpartitioned";
ALTER TABLE "RunSecond_unpartitioned" RENAME CONSTRAINT "RunSecond_pkey" TO "RunSecond_unpartitioned_pkey";
ALTER TABLE "RunSecond_unpartitioned" RENAME CONSTRAINT "RunSecond_runId_fkey" TO "RunSecond_unpartitioned_runId_fkey";
-- LIKE copies every column the table has now, whichever earlier migration added it.
CREATE TABLE "RunSecond" (LIKE "RunSecond_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("ts");
ALTER TABLE "RunSecond" ADD CONSTRAINT "RunSecond_pkey" PRIMARY KEY ("runId", "second", "segment", "ts");
ALTER TABLE "RunSecond" ADD CONSTRAINT "RunSecond_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE TABLE "RunSecond_default" PARTITION OF "RunSecond" DEFAULT;
SELECT poolbench_ensure_month_partition('RunSecond', m)
FROM (SELECT DISTINCT date_trunc('month', "ts", 'UTC') AS m FROM "RunSecond_unpartitioned"
      UNION SELECT date_trunc('month', now(), 'UTC') + make_interval(months => k) FROM generate_series(0, 2) AS k) AS months;
INSERT INTO "RunSecond" SELECT * FROM "RunSecond_unpartitioned";
DROP TABLE "RunSecond_unpartitioned";

-- ResourceSample
ALTER TABLE "ResourceSample" RENAME TO "ResourceSample_unpartitioned";
ALTER TABLE "ResourceSample_unpartitioned" RENAME CONSTRAINT "ResourceSample_pkey" TO "ResourceSample_unpartitioned_pkey";
ALTER TABLE "ResourceSample_unpartitioned" RENAME CONSTRAINT "ResourceSample_runId_fkey" TO "ResourceSample_unpartitioned_runId_fkey";
CREATE TABLE "ResourceSample" (LIKE "ResourceSample_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("ts");
ALTER TABLE "ResourceSample" ADD CONSTRAINT "ResourceSample_pkey" PRIMARY KEY ("runId", "second", "instance", "ts");
ALTER TABLE "ResourceSample" ADD CONSTRAINT "ResourceSample_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE TABLE "ResourceSample_default" PARTITION OF "ResourceSample" DEFAULT;
SELECT poolbench_ensure_month_partition('ResourceSample', m)
FROM (SELECT DISTINCT date_trunc('month', "ts", 'UTC') AS m FROM "ResourceSample_unpartitioned"
      UNION SELECT date_trunc('month', now(), 'UTC') + make_interval(months => k) FROM generate_series(0, 2) AS k) AS months;
INSERT INTO "ResourceSample" SELECT * FROM "ResourceSample_unpartitioned";
DROP TABLE "ResourceSample_unpartitioned";

-- Retention: a team may keep per-second data for a number of days (NULL = forever). Runs whose
-- seconds were removed keep their summary and merged histograms and say when they lost the rest.
ALTER TABLE "Team" ADD COLUMN "retentionDays" INTEGER;
ALTER TABLE "Team" ADD CONSTRAINT "Team_retentionDays_check" CHECK ("retentionDays" IS NULL OR "retentionDays" >= 1);
ALTER TABLE "Run" ADD COLUMN "secondsPrunedAt" TIMESTAMPTZ(3);
-- The retention task looks for finished runs by team and age.
CREATE INDEX "Run_teamId_finishedAt_idx" ON "Run" ("teamId", "finishedAt");
