import { useFormContext } from 'react-hook-form';
import type { ExperimentFormInput, ExperimentFormOutput } from '~/lib/schemas/experiment';

/** The experiment form a section sits in (`ExperimentForm` provides it), typed. */
export const useExperimentForm = () =>
  useFormContext<ExperimentFormInput, unknown, ExperimentFormOutput>();
