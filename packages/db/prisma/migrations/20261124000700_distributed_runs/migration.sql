-- Distributed runs: a run split across several load generators (k6 execution segments), one
-- RunSegment row per generator; per-second rows of a segment use RunSecond.segment = 'gen:<i>'.
-- CreateEnum
CREATE TYPE "RunSegmentStatus" AS ENUM ('pending', 'joined', 'ready', 'running', 'succeeded', 'failed', 'canceled');

-- AlterTable
ALTER TABLE "Experiment" ADD COLUMN "loadGenerators" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN "loadGenerators" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "RunSegment" (
    "runId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "status" "RunSegmentStatus" NOT NULL DEFAULT 'pending',
    "workerId" TEXT,
    "joinedAt" TIMESTAMPTZ(3),
    "readyAt" TIMESTAMPTZ(3),
    "startAt" TIMESTAMPTZ(3),
    "loadStartedAt" TIMESTAMPTZ(3),
    "startSkewMs" DOUBLE PRECISION,
    "heartbeatAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),
    "baseUrls" TEXT[],
    "requests" INTEGER NOT NULL DEFAULT 0,
    "loadMs" DOUBLE PRECISION,
    "cpuAvgPercent" DOUBLE PRECISION,
    "cpuMaxPercent" DOUBLE PRECISION,
    "rssMaxBytes" BIGINT,
    "errorCode" TEXT,
    "errorMessage" TEXT,

    CONSTRAINT "RunSegment_pkey" PRIMARY KEY ("runId","index")
);

-- CreateIndex
CREATE INDEX "RunSegment_workerId_idx" ON "RunSegment"("workerId");

-- AddForeignKey
ALTER TABLE "RunSegment" ADD CONSTRAINT "RunSegment_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
