-- AlterTable: each load generator's late samples and the CPU used beside it, as a single run records them
ALTER TABLE "RunSegment" ADD COLUMN     "delivery" JSONB,
ADD COLUMN     "disturbance" JSONB,
ADD COLUMN     "disturbanceBeforeStart" JSONB;
