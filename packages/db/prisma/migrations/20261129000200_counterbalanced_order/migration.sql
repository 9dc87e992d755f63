-- Counterbalanced order: the configs' order turns from repeat to repeat (A B, B A, …), and it is
-- the default for new experiments. Existing experiments keep the order they ran with. The type is
-- made again rather than given a value with ADD VALUE, because a value added in a transaction
-- cannot be used (here: as the column's default) before that transaction commits.
-- AlterEnum
ALTER TYPE "RunOrder" RENAME TO "RunOrder_old";
CREATE TYPE "RunOrder" AS ENUM ('counterbalanced', 'interleaved', 'blocked');
ALTER TABLE "Experiment" ALTER COLUMN "order" DROP DEFAULT;
ALTER TABLE "Experiment" ALTER COLUMN "order" TYPE "RunOrder" USING ("order"::text::"RunOrder");
ALTER TABLE "Experiment" ALTER COLUMN "order" SET DEFAULT 'counterbalanced';
DROP TYPE "RunOrder_old";
