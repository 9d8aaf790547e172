/**
 * Who a demo customer is. The sandbox counts verification failures per identity (name, date of birth, SSN
 * last 4, ZIP), so customers sharing one set of test values would share a lockout: each customer id
 * therefore gets an identity of its own, derived from the id (the same id, the same person, on any run).
 */
import { createHash } from 'node:crypto';

export interface DemoAddress {
  street: string;
  city: string;
  state: string;
  zipCode: string;
}

export interface DemoPersona {
  firstName: string;
  lastName: string;
  /** `YYYY-MM-DD`, an adult of 25 to 75 or so. */
  dateOfBirth: string;
  /** Never a magic sandbox value (`0000` freezes the file, `9999` fails verification). */
  ssnLast4: string;
  address: DemoAddress;
}

/** Words of a template literal, one list per paragraph of text (keeps long lists readable). */
const words = (text: string, separator: RegExp = /\s+/) => text.trim().split(separator);

const FIRST_NAMES = words(`
  Avery Jordan Riley Casey Morgan Quinn Taylor Rowan Harper Emerson Finley Sawyer Parker Reese Dakota Skyler
  Elliot Hayden Jamie Kendall Logan Marley Noel Oakley Peyton Remy Sage Tatum Blair Cameron Drew Ellis`);
const LAST_NAMES = words(`
  Maple Birch Cedar Willow Aspen Spruce Alder Hazel Juniper Linden Rowe Holloway Brooks Fairbanks Greer Hartley
  Ingram Kessler Lowell Mercer Nolan Prescott Quarles Radcliffe Sutton Thorne Underwood Vance Whitaker Yardley Ashby Calloway`);
const STREETS = words(
  `Maple Ave, Oak St, Elm St, Pine Rd, Cedar Ln, Lakeview Dr, Hillside Ave, River Rd, Park Pl, Sunset Blvd,
  Meadow Ln, Church St, Mill Rd, Highland Ave, Orchard Way, Spring St`,
  /\s*,\s*/,
);
const PLACES: readonly Omit<DemoAddress, 'street'>[] = [
  { city: 'Springfield', state: 'IL', zipCode: '62701' },
  { city: 'Madison', state: 'WI', zipCode: '53703' },
  { city: 'Columbus', state: 'OH', zipCode: '43215' },
  { city: 'Austin', state: 'TX', zipCode: '78701' },
  { city: 'Denver', state: 'CO', zipCode: '80202' },
  { city: 'Portland', state: 'OR', zipCode: '97205' },
  { city: 'Raleigh', state: 'NC', zipCode: '27601' },
  { city: 'Boise', state: 'ID', zipCode: '83702' },
  { city: 'Albany', state: 'NY', zipCode: '12207' },
  { city: 'Richmond', state: 'VA', zipCode: '23219' },
  { city: 'Nashville', state: 'TN', zipCode: '37203' },
  { city: 'Phoenix', state: 'AZ', zipCode: '85004' },
  { city: 'Sacramento', state: 'CA', zipCode: '95814' },
  { city: 'Lansing', state: 'MI', zipCode: '48933' },
  { city: 'Des Moines', state: 'IA', zipCode: '50309' },
  { city: 'Burlington', state: 'VT', zipCode: '05401' },
];

/** Dates of birth fall in these years: adults for decades to come, never near the 18–120 limits. */
const BORN_FROM = Date.UTC(1950, 0, 1);
const BORN_DAYS = Math.round((Date.UTC(2001, 0, 1) - BORN_FROM) / 86_400_000);

export const demoPersona = (id: string): DemoPersona => {
  const digest = createHash('sha256').update(`maple-bank-demo:${id}`).digest();
  const pick = <T>(list: readonly T[], byte: number) => list[(digest[byte] as number) % list.length] as T;
  const dayOfBirth = digest.readUInt32BE(2) % BORN_DAYS;
  return {
    firstName: pick(FIRST_NAMES, 0),
    lastName: pick(LAST_NAMES, 1),
    dateOfBirth: new Date(BORN_FROM + dayOfBirth * 86_400_000).toISOString().slice(0, 10),
    // 0001–9998: every value but the two magic ones.
    ssnLast4: String(1 + (digest.readUInt32BE(6) % 9998)).padStart(4, '0'),
    address: {
      street: `${1 + (digest.readUInt16BE(10) % 9899)} ${pick(STREETS, 12)}`,
      ...pick(PLACES, 13),
    },
  };
};
