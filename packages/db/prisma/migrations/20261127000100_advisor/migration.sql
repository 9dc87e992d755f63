-- The pool-size advisor (docs/advisor.md): an experiment whose runs an adaptive search plans.
-- "advisor" is what the user asked (knob, range, objective, budget); "advisorState" the search's
-- last answer (per-setting verdicts, the model fits, the recommendation).
-- AlterTable
ALTER TABLE "Experiment" ADD COLUMN "advisor" JSONB,
ADD COLUMN "advisorState" JSONB;
