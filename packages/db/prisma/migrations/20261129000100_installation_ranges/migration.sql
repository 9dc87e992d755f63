-- Special-purpose ranges (loopback, private, …) the installation's admin opened: a team admin may
-- allowlist addresses inside them and nothing else that is not public. None by default, so an
-- allowlist entry saved before this table existed reaches nothing special until a range holding
-- it is opened (docs/security.md).
-- CreateTable
CREATE TABLE "InstallationRange" (
    "id" TEXT NOT NULL,
    "cidr" TEXT NOT NULL,
    "note" TEXT,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InstallationRange_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "InstallationRange_cidr_key" ON "InstallationRange"("cidr");
