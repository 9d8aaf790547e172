import { validationError } from '../../core/api-error.ts';

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

export const assertAdultAge = (dateOfBirth: string, today: Date): void => {
  const age = ageOn(dateOfBirth, today);
  if (age < MIN_AGE || age > MAX_AGE) {
    throw validationError([{ field: 'dateOfBirth', message: `the person must be ${MIN_AGE}–${MAX_AGE} years old` }]);
  }
};
