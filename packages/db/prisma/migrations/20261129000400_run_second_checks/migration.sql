-- AlterTable: k6 checks per second (the partitions inherit the column)
ALTER TABLE "RunSecond" ADD COLUMN     "checks" JSONB;
