-- AlterTable: the second's requests that failed a scenario check despite a success status (already
-- in "failed"), so a summary rebuilt from stored seconds counts them too (the partitions inherit it)
ALTER TABLE "RunSecond" ADD COLUMN     "checkFailed" INTEGER NOT NULL DEFAULT 0;
