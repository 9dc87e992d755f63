-- Who this installation is. The row is made on first use (installationId), not here: test
-- databases are cloned from a migrated template and must not share one identity.
-- CreateTable
CREATE TABLE "Installation" (
    "singleton" BOOLEAN NOT NULL DEFAULT true,
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Installation_pkey" PRIMARY KEY ("singleton")
);

-- CreateIndex
CREATE UNIQUE INDEX "Installation_id_key" ON "Installation"("id");
