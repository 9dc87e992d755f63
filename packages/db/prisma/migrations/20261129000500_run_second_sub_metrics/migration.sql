-- AlterTable: the tagged series' values per second (the partitions inherit the column)
ALTER TABLE "RunSecond" ADD COLUMN     "subMetrics" JSONB;
