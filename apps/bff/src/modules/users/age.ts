import { type ErrorDetail, validationError } from '../../core/api-error.ts';

export const MIN_AGE = 18;
export const MAX_AGE = 120;

/** Whole years between a YYYY-MM-DD birth date and `today` (UTC). */
export const ageOn = (dateOfBirth: string, today: Date): number => {
  const [year, month, day] = dateOfBirth.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - year;
  const beforeBirthday = today.getUTCMonth() + 1 < month || (today.getUTCMonth() + 1 === month && today.getUTCDate() < day);
  if (beforeBirthday) age -= 1;
  return age;
};

const AGE_PROBLEM = { field: 'dateOfBirth', message: `the person must be ${MIN_AGE}–${MAX_AGE} years old` };
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const assertAdultAge = (dateOfBirth: string, today: Date): void => {
  const age = ageOn(dateOfBirth, today);
  if (age < MIN_AGE || age > MAX_AGE) throw validationError([AGE_PROBLEM]);
};

/** The age rule on an enrolment body not yet validated, so it is reported with the body's other broken fields. */
export const enrolmentAgeProblems = (body: unknown, today: Date): ErrorDetail[] => {
  const dateOfBirth = (body as { dateOfBirth?: unknown } | null)?.dateOfBirth;
  if (typeof dateOfBirth !== 'string' || !DATE.test(dateOfBirth)) return [];
  const age = ageOn(dateOfBirth, today);
  return age < MIN_AGE || age > MAX_AGE ? [{ ...AGE_PROBLEM }] : [];
};
