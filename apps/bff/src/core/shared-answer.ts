/** The JSON of answer data a service shares between answers (`sharedAnswerData`), by identity; null until first written. */
const sharedDataJson = new WeakMap<object, string | null>();

/**
 * Marks `data` as shared between answers and never changed again, nested values included (a page of offers): whoever
 * answers it may write its JSON once and reuse it. Explicit, not `Object.isFrozen`, which says nothing about nested
 * values. Lives here so that services mark their data without knowing how it is answered.
 */
export const sharedAnswerData = <T extends object>(data: T): T => {
  sharedDataJson.set(data, null);
  return data;
};

/** The JSON of data marked by `sharedAnswerData`, written on first use and reused after; undefined for unmarked data. */
export const sharedJsonOf = (data: object): string | undefined => {
  let json = sharedDataJson.get(data);
  if (json === undefined) return undefined;
  if (json === null) {
    json = JSON.stringify(data);
    sharedDataJson.set(data, json);
  }
  return json;
};
