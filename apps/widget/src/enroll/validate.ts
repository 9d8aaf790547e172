import type { TSelfEnrollmentInput } from '@credit/contract';

/**
 * The enrolment checks of the contract's ZSelfEnrollmentInput, re-implemented so the widget does
 * not ship zod: the API checks again and its `details` are mapped back onto these fields.
 */
export const ENROLL_FIELDS = ['ssn', 'dateOfBirth', 'street', 'city', 'state', 'zipCode', 'phone'] as const;
export type EnrollField = (typeof ENROLL_FIELDS)[number];
export type EnrollValues = Record<EnrollField, string>;

export type EnrollProblem =
  | 'required'
  | 'ssnFormat'
  | 'dateFormat'
  | 'tooYoung'
  | 'tooOld'
  | 'stateInvalid'
  | 'zipFormat'
  | 'phoneFormat'
  | 'tooLong';

/** Same list as the contract's US_STATE_CODES (50 states, DC and the territories). */
// biome-ignore format: a table reads better packed.
export const US_STATES: readonly [code: string, name: string][] = [
  ['AL', 'Alabama'], ['AK', 'Alaska'], ['AZ', 'Arizona'], ['AR', 'Arkansas'], ['CA', 'California'], ['CO', 'Colorado'],
  ['CT', 'Connecticut'], ['DE', 'Delaware'], ['DC', 'District of Columbia'], ['FL', 'Florida'], ['GA', 'Georgia'],
  ['HI', 'Hawaii'], ['ID', 'Idaho'], ['IL', 'Illinois'], ['IN', 'Indiana'], ['IA', 'Iowa'], ['KS', 'Kansas'],
  ['KY', 'Kentucky'], ['LA', 'Louisiana'], ['ME', 'Maine'], ['MD', 'Maryland'], ['MA', 'Massachusetts'], ['MI', 'Michigan'],
  ['MN', 'Minnesota'], ['MS', 'Mississippi'], ['MO', 'Missouri'], ['MT', 'Montana'], ['NE', 'Nebraska'], ['NV', 'Nevada'],
  ['NH', 'New Hampshire'], ['NJ', 'New Jersey'], ['NM', 'New Mexico'], ['NY', 'New York'], ['NC', 'North Carolina'],
  ['ND', 'North Dakota'], ['OH', 'Ohio'], ['OK', 'Oklahoma'], ['OR', 'Oregon'], ['PA', 'Pennsylvania'], ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'], ['SD', 'South Dakota'], ['TN', 'Tennessee'], ['TX', 'Texas'], ['UT', 'Utah'], ['VT', 'Vermont'],
  ['VA', 'Virginia'], ['WA', 'Washington'], ['WV', 'West Virginia'], ['WI', 'Wisconsin'], ['WY', 'Wyoming'],
  ['AS', 'American Samoa'], ['GU', 'Guam'], ['MP', 'Northern Mariana Islands'], ['PR', 'Puerto Rico'], ['VI', 'U.S. Virgin Islands'],
];
const STATE_CODES = new Set(US_STATES.map(([code]) => code));

const SSN_LAST4 = /^\d{4}$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ZIP = /^\d{5}(-\d{4})?$/;
const PHONE = /^\+?[0-9][0-9 ().-]{6,19}$/;

/** Whole years between a birth date and today, or null when the date is not a real calendar date. */
export const ageOn = (isoDate: string, today: Date): number | null => {
  const match = ISO_DATE.exec(isoDate);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  let age = today.getUTCFullYear() - year;
  const beforeBirthday = today.getUTCMonth() < month - 1 || (today.getUTCMonth() === month - 1 && today.getUTCDate() < day);
  if (beforeBirthday) age -= 1;
  return age;
};

export const validateField = (field: EnrollField, raw: string, today = new Date()): EnrollProblem | null => {
  const value = raw.trim();
  switch (field) {
    case 'ssn':
      if (!value) return 'required';
      return SSN_LAST4.test(value) ? null : 'ssnFormat';
    case 'dateOfBirth': {
      if (!value) return 'required';
      const age = ageOn(value, today);
      if (age === null) return 'dateFormat';
      if (age < 18) return 'tooYoung';
      return age > 120 ? 'tooOld' : null;
    }
    case 'street':
      if (!value) return 'required';
      return value.length > 200 ? 'tooLong' : null;
    case 'city':
      if (!value) return 'required';
      return value.length > 100 ? 'tooLong' : null;
    case 'state':
      if (!value) return 'required';
      return STATE_CODES.has(value) ? null : 'stateInvalid';
    case 'zipCode':
      if (!value) return 'required';
      return ZIP.test(value) ? null : 'zipFormat';
    case 'phone':
      if (!value) return null;
      return PHONE.test(value) ? null : 'phoneFormat';
  }
};

export const validateAll = (values: EnrollValues, today = new Date()): Partial<Record<EnrollField, EnrollProblem>> => {
  const problems: Partial<Record<EnrollField, EnrollProblem>> = {};
  for (const field of ENROLL_FIELDS) {
    const problem = validateField(field, values[field], today);
    if (problem) problems[field] = problem;
  }
  return problems;
};

export const toEnrollmentInput = (values: EnrollValues): TSelfEnrollmentInput => ({
  ssn: values.ssn.trim(),
  dateOfBirth: values.dateOfBirth.trim(),
  address: {
    street: values.street.trim(),
    city: values.city.trim(),
    state: values.state as TSelfEnrollmentInput['address']['state'],
    zipCode: values.zipCode.trim(),
  },
  ...(values.phone.trim() ? { phone: values.phone.trim() } : {}),
});

/** The API names fields by their path in the body (`address.zipCode`); the form by its input. */
export const fieldFromApiPath = (path: string): EnrollField | null => {
  const last = path.replace(/^address\./, '');
  return (ENROLL_FIELDS as readonly string[]).includes(last) ? (last as EnrollField) : null;
};
