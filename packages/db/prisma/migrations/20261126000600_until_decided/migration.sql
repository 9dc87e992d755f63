-- "Until decided, at most N repeats per side": the sequential rule decides after each pair of runs
-- (docs/metrics.md, "Sequential decisions").
-- AlterTable
ALTER TABLE "Experiment" ADD COLUMN "untilDecidedMaxRepeats" INTEGER,
ADD COLUMN "sequentialMetrics" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN "sequentialState" JSONB;
