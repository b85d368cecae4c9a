/**
 * What the data-quality rules need of one content file, taken while the file is checked (on the
 * check threads) and cached with its check result: per record the names, address, coordinates,
 * links, opening hours and dates the rules look at, each with its line and column. A rebuild runs
 * the rules on these facts without parsing the values of unchanged files.
 */
import { pointerJoin } from "../core/json-pointer.js";
import { isObject } from "../core/json-value.js";
import { MARKETING_STATE_KEYS, isProductRecordsKey } from "../check/product-rules.js";
import { locate, type YamlSource } from "../read/yaml-source.js";

/** Where a value stands in its file. */
export interface Spot {
  readonly pointer: string;
  readonly line: number;
  readonly column: number;
}

/** A text value with its place, for the spelling rule. */
export interface TextFact extends Spot {
  readonly field: "TownName" | "StreetName" | "CountrySubDivision";
  readonly value: string;
}

export interface PeriodFact extends Spot {
  readonly opening: string;
  readonly closing: string;
}

export interface DayFact extends Spot {
  readonly name: string;
  readonly periods: readonly PeriodFact[];
}

/** One record's facts. */
export interface RecordFacts extends Spot {
  readonly id: string | undefined;
  readonly texts: readonly TextFact[];
  readonly country: string | undefined;
  readonly postcode: (Spot & { readonly value: string }) | undefined;
  readonly coordinates:
    (Spot & { readonly latitude: number; readonly longitude: number }) | undefined;
  /** Building, street, town and postcode, normalised, for the duplicate rule. */
  readonly addressKey: string | undefined;
  /** An ATM's Branch.Identification. */
  readonly branchRef: (Spot & { readonly value: string }) | undefined;
  /** A branch listing ExternalATM or InternalATM among its services. */
  readonly hasAtm: boolean;
  /** An ATM's Access24HoursIndicator and notes. */
  readonly open24Hours: boolean;
  readonly notes: readonly (Spot & { readonly value: string })[];
  /** Each opening-hours list (standard and non-standard) as its days. */
  readonly dayLists: readonly (Spot & { readonly days: readonly DayFact[] })[];
  /** A non-standard availability's EndDate. */
  readonly endDate: (Spot & { readonly value: string }) | undefined;
  /** A product's Name and its marketing states' dates. */
  readonly product: { readonly name: string; readonly dates: string } | undefined;
}

export interface FileFacts {
  readonly records: readonly RecordFacts[];
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;
const field = (value: unknown, key: string): unknown => (isObject(value) ? value[key] : undefined);
const objectAt = (value: unknown, key: string): Record<string, unknown> | undefined => {
  const child = isObject(value) ? value[key] : undefined;
  return isObject(child) ? child : undefined;
};
const listAt = (value: unknown, key: string): unknown[] => {
  const child = isObject(value) ? value[key] : undefined;
  return Array.isArray(child) ? child : [];
};

/** The facts of a valid brand file, or undefined for a file that holds no records. */
export function extractFacts(
  source: YamlSource,
  value: unknown,
  recordsKey: string | null,
): FileFacts | undefined {
  if (recordsKey === null) return undefined;
  const spot = (pointer: string): Spot => ({ pointer, ...locate(source, pointer) });
  const records = listAt(value, recordsKey).map((record, index) =>
    recordFacts(record, pointerJoin(pointerJoin("", recordsKey), index), recordsKey, spot),
  );
  return { records };
}

function recordFacts(
  record: unknown,
  at: string,
  recordsKey: string,
  spot: (pointer: string) => Spot,
): RecordFacts {
  const atm = recordsKey === "ATM";
  const addressAt = atm
    ? pointerJoin(pointerJoin(at, "Location"), "PostalAddress")
    : pointerJoin(at, "PostalAddress");
  const address = atm
    ? objectAt(objectAt(record, "Location"), "PostalAddress")
    : objectAt(record, "PostalAddress");
  const texts: TextFact[] = [];
  for (const field of ["TownName", "StreetName"] as const) {
    const value = text(address?.[field]);
    if (value !== undefined) texts.push({ field, value, ...spot(pointerJoin(addressAt, field)) });
  }
  listAt(address, "CountrySubDivision").forEach((value, i) => {
    if (typeof value === "string") {
      const pointer = pointerJoin(pointerJoin(addressAt, "CountrySubDivision"), i);
      texts.push({ field: "CountrySubDivision", value, ...spot(pointer) });
    }
  });
  const postcode = text(address?.PostCode);
  const coordinatesAt = pointerJoin(pointerJoin(addressAt, "GeoLocation"), "GeographicCoordinates");
  const coordinates = objectAt(objectAt(address, "GeoLocation"), "GeographicCoordinates");
  const latitude = Number(coordinates?.Latitude);
  const longitude = Number(coordinates?.Longitude);
  const addressParts = [address?.BuildingNumber, address?.StreetName, address?.TownName, postcode];
  const branchId = text(objectAt(record, "Branch")?.Identification);
  const services = listAt(record, "ServiceAndFacility");
  const availability = objectAt(record, "Availability");
  const availabilityAt = pointerJoin(at, "Availability");
  const dayLists = (["StandardAvailability", "NonStandardAvailability"] as const).flatMap((key) => {
    const list = listAt(objectAt(availability, key), "Day");
    if (list.length === 0) return [];
    const daysAt = pointerJoin(pointerJoin(availabilityAt, key), "Day");
    const days = list.map((day, d) => {
      const dayAt = pointerJoin(daysAt, d);
      const periods = listAt(day, "OpeningHours").map((hours, h) => ({
        opening: String(field(hours, "OpeningTime") ?? ""),
        closing: String(field(hours, "ClosingTime") ?? ""),
        ...spot(pointerJoin(pointerJoin(dayAt, "OpeningHours"), h)),
      }));
      return { name: String(field(day, "Name") ?? ""), periods, ...spot(dayAt) };
    });
    return [{ days, ...spot(daysAt) }];
  });
  const nonStandardAt = pointerJoin(availabilityAt, "NonStandardAvailability");
  const endDate = text(objectAt(availability, "NonStandardAvailability")?.EndDate);
  const stateKey = isProductRecordsKey(recordsKey) ? MARKETING_STATE_KEYS[recordsKey] : undefined;
  const name = text(field(record, "Name"));
  return {
    ...spot(at),
    id: text(field(record, "Identification")),
    texts,
    country: text(address?.Country),
    postcode:
      postcode === undefined
        ? undefined
        : { value: postcode, ...spot(pointerJoin(addressAt, "PostCode")) },
    coordinates:
      Number.isFinite(latitude) && Number.isFinite(longitude)
        ? { latitude, longitude, ...spot(coordinatesAt) }
        : undefined,
    addressKey: addressParts.every((p) => p === undefined)
      ? undefined
      : addressParts
          .map((p) =>
            String(p ?? "")
              .toLowerCase()
              .replace(/\s+/g, " ")
              .trim(),
          )
          .join("|"),
    branchRef:
      branchId === undefined
        ? undefined
        : { value: branchId, ...spot(pointerJoin(pointerJoin(at, "Branch"), "Identification")) },
    hasAtm: services.includes("ExternalATM") || services.includes("InternalATM"),
    open24Hours: field(record, "Access24HoursIndicator") === true,
    notes: listAt(record, "Note").flatMap((note, i) =>
      typeof note === "string"
        ? [{ value: note, ...spot(pointerJoin(pointerJoin(at, "Note"), i)) }]
        : [],
    ),
    dayLists,
    endDate:
      endDate === undefined
        ? undefined
        : { value: endDate, ...spot(pointerJoin(nonStandardAt, "EndDate")) },
    product:
      stateKey && name !== undefined
        ? {
            name,
            dates: listAt(record, stateKey)
              .map(
                (state) =>
                  `${field(state, "FirstMarketedDate")}..${field(state, "LastMarketedDate")}`,
              )
              .sort()
              .join(","),
          }
        : undefined,
  };
}
