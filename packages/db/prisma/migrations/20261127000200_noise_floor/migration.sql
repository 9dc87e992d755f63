-- A/A calibration (docs/metrics.md, "Noise floor"): an experiment that runs one config against
-- itself, and the noise floor it measured per metric for its target × scenario.
-- AlterTable
ALTER TABLE "Experiment" ADD COLUMN "noiseCalibration" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "NoiseFloor" (
    "id" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "scenarioId" TEXT NOT NULL,
    "poolConfigId" TEXT NOT NULL,
    "runsPerSide" INTEGER NOT NULL,
    "metrics" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "NoiseFloor_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "NoiseFloor_experimentId_key" ON "NoiseFloor"("experimentId");

-- CreateIndex
CREATE INDEX "NoiseFloor_teamId_targetId_scenarioId_createdAt_idx" ON "NoiseFloor"("teamId", "targetId", "scenarioId", "createdAt");

-- AddForeignKey
ALTER TABLE "NoiseFloor" ADD CONSTRAINT "NoiseFloor_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
