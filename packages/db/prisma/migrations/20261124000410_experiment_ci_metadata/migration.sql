-- Experiments started from CI carry where they came from: the commit, the branch and the CI job's
-- URL (REST start, the CLI's --commit/--branch/--build-url or the CI's own variables).
-- AlterTable
ALTER TABLE "Experiment" ADD COLUMN "commit" TEXT,
ADD COLUMN "branch" TEXT,
ADD COLUMN "buildUrl" TEXT;
