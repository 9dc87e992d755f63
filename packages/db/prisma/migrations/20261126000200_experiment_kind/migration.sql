-- A schedule's definition is an Experiment of its own kind, so no list has to tell it apart by
-- having no runs (it stayed `queued` forever and every list filtered it out by hand).
-- CreateEnum
CREATE TYPE "ExperimentKind" AS ENUM ('run', 'schedule_definition');

-- AlterTable
ALTER TABLE "Experiment" ADD COLUMN "kind" "ExperimentKind" NOT NULL DEFAULT 'run';

-- The run-less source experiments of schedules are their definitions.
UPDATE "Experiment" AS e SET "kind" = 'schedule_definition'
WHERE EXISTS (SELECT 1 FROM "Schedule" AS s WHERE s."sourceExperimentId" = e."id")
  AND NOT EXISTS (SELECT 1 FROM "Run" AS r WHERE r."experimentId" = e."id");
