-- A run whose k6 thresholds failed ends in its own terminal status instead of "succeeded": it is a
-- failure to the user (k6's exit code 99) although its measurements are valid.
ALTER TYPE "RunStatus" ADD VALUE 'thresholds_failed' AFTER 'succeeded';
