-- Hypotheses of an experiment (issue 14): written before the first run, decided when it ends.
-- CreateEnum
CREATE TYPE "HypothesisStatus" AS ENUM ('pending', 'holds', 'does_not_hold', 'unresolved');

-- CreateTable
CREATE TABLE "Hypothesis" (
    "id" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "basePoolConfigId" TEXT NOT NULL,
    "baseScenarioId" TEXT NOT NULL,
    "candidatePoolConfigId" TEXT NOT NULL,
    "candidateScenarioId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "expect" TEXT NOT NULL,
    "band" DOUBLE PRECISION NOT NULL,
    "bandUnit" TEXT NOT NULL,
    "windowFrom" INTEGER,
    "windowTo" INTEGER,
    "claim" TEXT,
    "statement" TEXT NOT NULL,
    "status" "HypothesisStatus" NOT NULL DEFAULT 'pending',
    "change" DOUBLE PRECISION,
    "low" DOUBLE PRECISION,
    "high" DOUBLE PRECISION,
    "changeUnit" TEXT,
    "p" DOUBLE PRECISION,
    "reason" TEXT,
    "repeatsNeeded" INTEGER,
    "decidedAt" TIMESTAMPTZ(3),
    "runsUsed" TEXT[],
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Hypothesis_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Hypothesis_experimentId_position_key" ON "Hypothesis"("experimentId", "position");

-- AddForeignKey
ALTER TABLE "Hypothesis" ADD CONSTRAINT "Hypothesis_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
