-- Schedules compare and tell (issue 17): each scheduled experiment, once its last run ended, is
-- compared with a named baseline; a regression (or every outcome) is sent to a webhook signed
-- with HMAC-SHA256. The webhook URL and its key are sealed like target secrets.
-- CreateEnum
CREATE TYPE "WebhookFormat" AS ENUM ('generic', 'slack');

-- CreateEnum
CREATE TYPE "ScheduleNotifyOn" AS ENUM ('regression', 'always');

-- CreateEnum
CREATE TYPE "NotificationStatus" AS ENUM ('not_needed', 'pending', 'sending', 'delivered', 'failed');

-- AlterTable
ALTER TABLE "Schedule" ADD COLUMN "baselineName" TEXT,
ADD COLUMN "webhookUrlSealed" BYTEA,
ADD COLUMN "webhookHost" TEXT,
ADD COLUMN "webhookFormat" "WebhookFormat" NOT NULL DEFAULT 'generic',
ADD COLUMN "webhookSecretSealed" BYTEA,
ADD COLUMN "notifyOn" "ScheduleNotifyOn" NOT NULL DEFAULT 'regression';

-- CreateTable
CREATE TABLE "ScheduleNotification" (
    "id" TEXT NOT NULL,
    "scheduleId" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "NotificationStatus" NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3),
    "claimedAt" TIMESTAMPTZ(3),
    "lastStatusCode" INTEGER,
    "lastError" TEXT,
    "deliveredAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ScheduleNotification_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ScheduleNotification_experimentId_key" ON "ScheduleNotification"("experimentId");

-- CreateIndex
CREATE INDEX "ScheduleNotification_scheduleId_createdAt_idx" ON "ScheduleNotification"("scheduleId", "createdAt");

-- CreateIndex
CREATE INDEX "ScheduleNotification_status_nextAttemptAt_idx" ON "ScheduleNotification"("status", "nextAttemptAt");

-- AddForeignKey
ALTER TABLE "ScheduleNotification" ADD CONSTRAINT "ScheduleNotification_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES "Schedule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScheduleNotification" ADD CONSTRAINT "ScheduleNotification_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
