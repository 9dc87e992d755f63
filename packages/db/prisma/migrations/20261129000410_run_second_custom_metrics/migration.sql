-- AlterTable: the script's own k6 metrics per second (the partitions inherit the column)
ALTER TABLE "RunSecond" ADD COLUMN     "custom" JSONB;
