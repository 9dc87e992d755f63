-- Fleet limits per team (null = the documented default) and each run's planned load time, which
-- the team's queued-load limit adds up. Runs created before this count with 0 ms.
-- AlterTable
ALTER TABLE "Team" ADD COLUMN "maxRunsPerExperiment" INTEGER,
ADD COLUMN "maxQueuedLoadMinutes" INTEGER;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN "plannedLoadMs" INTEGER NOT NULL DEFAULT 0;
