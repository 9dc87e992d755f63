-- Whether the team's members may import and run their own k6 scripts (run in the worker's
-- sandbox; docs/k6-scripts.md). On by default; a team admin turns it off in Settings.
-- AlterTable
ALTER TABLE "Team" ADD COLUMN "scriptScenarios" BOOLEAN NOT NULL DEFAULT true;
