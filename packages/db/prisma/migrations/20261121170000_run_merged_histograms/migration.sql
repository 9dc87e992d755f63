-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "blockedHist" BYTEA,
ADD COLUMN     "durationHist" BYTEA;
