/** The UTF-8 JSON of answer data a service shares between answers (`sharedAnswerData`), by identity; null until written. */
const sharedDataBytes = new WeakMap<object, Buffer | null>();

/**
 * Marks `data` as shared between answers and never changed again, nested values included (a page of offers): whoever
 * answers it may write its JSON once and reuse it. Explicit, not `Object.isFrozen`, which says nothing about nested
 * values. Lives here so that services mark their data without knowing how it is answered.
 */
export const sharedAnswerData = <T extends object>(data: T): T => {
  sharedDataBytes.set(data, null);
  return data;
};

/**
 * The JSON of data marked by `sharedAnswerData` as UTF-8 bytes, written on first use and reused after (a large answer,
 * a credit report, then costs a copy per request, not an encoding); undefined for unmarked data.
 */
export const sharedJsonBytesOf = (data: object): Buffer | undefined => {
  let bytes = sharedDataBytes.get(data);
  if (bytes === undefined) return undefined;
  if (bytes === null) {
    bytes = Buffer.from(JSON.stringify(data));
    sharedDataBytes.set(data, bytes);
  }
  return bytes;
};
