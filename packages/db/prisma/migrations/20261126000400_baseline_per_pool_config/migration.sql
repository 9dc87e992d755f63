-- A baseline belongs to the pool config it was saved from: saving `main` from one config's card
-- must never move another config's `main`. Run baselines record their run's config too.
UPDATE "Baseline" b
SET "poolConfigId" = r."poolConfigId"
FROM "Run" r
WHERE b."runId" = r."id" AND b."poolConfigId" IS NULL;

-- DropIndex
DROP INDEX "Baseline_targetId_scenarioId_name_key";

-- CreateIndex (NULLS NOT DISTINCT: rows whose run lost its config still have one per name)
CREATE UNIQUE INDEX "Baseline_targetId_scenarioId_poolConfigId_name_key" ON "Baseline"("targetId", "scenarioId", "poolConfigId", "name") NULLS NOT DISTINCT;
