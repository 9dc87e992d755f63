-- A schedule may settle a suspected regression by adding repeats to the firing once, up to this
-- many per cell, before it decides (docs/outcomes.md).
-- AlterTable
ALTER TABLE "Schedule" ADD COLUMN "settleUpToRepeats" INTEGER;
