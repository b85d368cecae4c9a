/**
 * Synthetic, schema-valid content at benchmark sizes, with realistic field use: ATMs of about 500
 * bytes of JSON, branches with a full week of opening hours and contacts, products with interest
 * tiers, service metrics with every section. Deterministic: the same sizes give the same files.
 * Large lists are split into brand folders of RECORDS_PER_FILE records, as a large publisher would.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stringify } from "yaml";
import { loadTemplates, productLists, type ProductSizes } from "./generate-products.js";

export interface Sizes {
  readonly branches: number;
  readonly atms: number;
  /** Personal current accounts of one marketing state and a small fee table each. */
  readonly products: number;
  readonly metricsBrands: number;
  /** Products of all four product data sets in full, copied from the samples (generate-products.ts). */
  readonly fullProducts?: ProductSizes;
  /** Brands that share the branches, ATMs and products. */
  readonly brands?: number;
}

export const RECORDS_PER_FILE = 250;
/**
 * Full products weigh 20 to 60 times an ATM (10 to 17 KB of JSON each), so their files hold 10:
 * about the size of an ATM file of 250, and what a reviewer can read in one pull request.
 */
export const FULL_PRODUCTS_PER_FILE = 10;

const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const TOWNS = [
  "Ashcombe",
  "Brindlemoor",
  "Calderwick",
  "Dunmore Vale",
  "Eastholt",
  "Fallowmere",
  "Greyhaven",
  "Hollinsby",
];
const STREETS = [
  "High Street",
  "Market Place",
  "Station Road",
  "Church Lane",
  "Mill Road",
  "Victoria Parade",
];

/** A small deterministic generator (mulberry32), so content does not depend on Math.random. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rnd: () => number, list: readonly T[]): T {
  return list[Math.floor(rnd() * list.length)]!;
}

function address(rnd: () => number, n: number, full: boolean) {
  const town = pick(rnd, TOWNS);
  return {
    ...(full ? { AddressLine: [`Unit ${1 + (n % 40)}`] } : {}),
    BuildingNumber: String(1 + (n % 180)),
    StreetName: pick(rnd, STREETS),
    TownName: town,
    ...(full ? { CountrySubDivision: ["Westshire"] } : {}),
    Country: "GB",
    ...(full || n % 2 === 0 ? { PostCode: `ZZ${1 + (n % 89)} ${1 + (n % 9)}QX` } : {}),
    GeoLocation: {
      GeographicCoordinates: {
        Latitude: (50 + rnd() * 8).toFixed(6),
        Longitude: (-5 + rnd() * 6).toFixed(6),
      },
    },
  };
}

function hours(open: string, close: string) {
  return [{ OpeningTime: open, ClosingTime: close }];
}

function branch(n: number, rnd: () => number) {
  return {
    Identification: `BR${String(n).padStart(6, "0")}`,
    SequenceNumber: "0",
    Name: `${pick(rnd, TOWNS)} ${pick(rnd, STREETS)}`,
    Type: "Physical",
    SortCode: [`40-${String(n % 100).padStart(2, "0")}-${String(n % 97).padStart(2, "0")}`],
    CustomerSegment: ["Personal", "Business"],
    ServiceAndFacility: ["ExternalATM", "CounterServices", "MortgageAdvisor", "WiFi"],
    Accessibility: ["LevelAccess", "InductionLoop", "WheelchairAccess"],
    Availability: {
      StandardAvailability: {
        Day: DAYS.slice(0, n % 3 === 0 ? 6 : 5).map((Name) => ({
          Name,
          OpeningHours: Name === "Saturday" ? hours("09:00", "12:30") : hours("09:00", "17:00"),
        })),
      },
    },
    ContactInfo: [
      { ContactType: "Phone", ContactContent: `+44-113496${String(n % 10000).padStart(4, "0")}` },
      { ContactType: "Email", ContactContent: `branch${n}@example.org` },
    ],
    PostalAddress: address(rnd, n, true),
  };
}

export function atm(n: number, rnd: () => number) {
  return {
    Identification: `ATM${String(n).padStart(7, "0")}`,
    SupportedLanguages: ["en", "cy"],
    ATMServices: ["CashWithdrawal", "Balance", "PINChange", "MiniStatement"],
    ...(n % 2 === 0 ? { Accessibility: ["AudioCashMachine", "WheelchairAccess"] } : {}),
    Access24HoursIndicator: n % 4 !== 0,
    SupportedCurrencies: ["GBP"],
    MinimumPossibleAmount: "10.00",
    ...(n % 3 === 0
      ? { Branch: { Identification: `BR${String(n % 1000).padStart(6, "0")}` } }
      : {}),
    Location: {
      LocationCategory: [pick(rnd, ["BranchExternal", "RetailerOutlet", "BranchLobby"])],
      ...(n % 3 === 0
        ? { Site: { Name: `${pick(rnd, TOWNS)} ${pick(rnd, ["Superstore", "Station"])}` } }
        : {}),
      PostalAddress: address(rnd, n, false),
    },
  };
}

function product(n: number) {
  return {
    Name: `Everyday Account ${n}`,
    Identification: `PCA${String(n).padStart(5, "0")}`,
    Segment: ["General"],
    OnSaleIndicator: n % 5 !== 0,
    Notes: ["Fee-free everyday banking with a linked debit card."],
    PCAMarketingState: [
      {
        Identification: `MS${n}`,
        MarketingState: "Regular",
        FirstMarketedDate: "2024-01-01",
        Notes: ["Available to new and existing customers."],
        CreditInterest: {
          TierBandSet: [
            {
              TierBandMethod: "Tiered",
              CalculationMethod: "SimpleInterest",
              Destination: "SelfCredit",
              TierBand: [
                {
                  Identification: "T1",
                  TierValueMinimum: "0",
                  TierValueMaximum: "1999.99",
                  CalculationFrequency: "Daily",
                  ApplicationFrequency: "Monthly",
                  FixedVariableInterestRateType: "Variable",
                  AER: "1.00",
                  BankInterestRateType: "Gross",
                  BankInterestRate: "0.99",
                },
                {
                  Identification: "T2",
                  TierValueMinimum: "2000",
                  CalculationFrequency: "Daily",
                  ApplicationFrequency: "Monthly",
                  FixedVariableInterestRateType: "Variable",
                  AER: "2.50",
                  BankInterestRateType: "Gross",
                  BankInterestRate: "2.47",
                },
              ],
              CreditInterestEligibility: [
                { Name: "Minimum deposit", Type: "MinimumDeposit", Amount: "500", Period: "Month" },
              ],
            },
          ],
        },
        Overdraft: {
          Notes: ["Arranged overdrafts are subject to status."],
          OverdraftTierBandSet: [
            {
              TierBandMethod: "Whole",
              OverdraftTierBand: [{ TierValueMin: "0", TierValueMax: "1000", EAR: "39.9" }],
            },
          ],
        },
        OtherFeesCharges: {
          FeeChargeDetail: [
            {
              FeeCategory: "Servicing",
              FeeType: "ServiceCAccountFeeMonthly",
              FeeAmount: "0.00",
              ApplicationFrequency: "Monthly",
              CalculationFrequency: "Monthly",
            },
          ],
        },
        CoreProduct: { MonthlyMaximumCharge: "20.00" },
      },
    ],
  };
}

function metricsBrand(n: number) {
  const day = (Name: string) => ({
    Name,
    AvailableHours: [{ OpeningTime: "08:00", ClosingTime: "20:00" }],
  });
  return {
    BrandName: `Synthetic Brand ${n}`,
    PublicationDate: "2026-08-01",
    MeasurementPeriodStartDate: "2026-01-01",
    MeasurementPeriodEndDate: "2026-06-30",
    ServicesMatterAvailability: {
      ServicesMatterAvailabilityDetails: ["HelpOpeningAccount", "ReportFraudulentIncident"].map(
        (MatterType) => ({
          MatterType,
          "24HourHelp": "Yes",
          ServiceMatterAvailabilityMethod: [
            { MatterMethodType: "Telephone", "24HourAvailable": "No", Day: DAYS.map(day) },
          ],
        }),
      ),
    },
    ServiceMatterContactDetails: {
      MatterAvailabilityMethod: [
        {
          MatterMethodType: "Telephone",
          ContactTypeDetails: [{ ContactType: "Phone", ContactContent: "+44-1134960000" }],
        },
      ],
    },
    OperationalSecurityIncidentMetrics: {
      OperationalSecurityIncidentMetricsDetails: [
        {
          IncidentMetricsType: "TotalNumberIncidentReported",
          IncidentDetails: [
            {
              IncidentReportingType: "Quarterly",
              FromDate: "2026-01-01",
              ToDate: "2026-03-31",
              IncidentCount: n % 7,
            },
          ],
        },
      ],
    },
    ComplaintsData: {
      CompliantsDataDetails: {
        CompliantsDataAvailable: "Yes",
        CompliantsInfoURL: "https://www.example.org/complaints",
      },
    },
    CardReplacementTimeLine: {
      CardReplacementTimeLineDetails: [
        {
          CardReplacementTimeline: "DebitCardReplacement",
          CardReplacementTimelineMetrics: [{ TimelineMetricsType: "WithinDays", MetricsValue: 5 }],
        },
      ],
    },
  };
}

async function writeBrandFolder(
  dir: string,
  header: string,
  brandName: string,
  key: string,
  records: unknown[],
  { perFile, prefix }: { perFile: number; prefix: string },
) {
  await mkdir(dir, { recursive: true });
  for (let i = 0; i * perFile < records.length; i++) {
    const part = records.slice(i * perFile, (i + 1) * perFile);
    const name = `${prefix}-${String(i).padStart(4, "0")}.yaml`;
    await writeFile(
      join(dir, name),
      `${header}\n${stringify({ BrandName: brandName, [key]: part }, { lineWidth: 0 })}`,
    );
  }
}

/** Writes a complete content folder (site.yaml and every data set) of the given sizes. */
export async function generateContent(contentDir: string, sizes: Sizes): Promise<void> {
  const brands = sizes.brands ?? 2;
  const rnd = random(42);
  const templates = sizes.fullProducts ? await loadTemplates() : undefined;
  await mkdir(contentDir, { recursive: true });
  await writeFile(
    join(contentDir, "site.yaml"),
    "License: https://www.openbanking.org.uk/open-licence\nTermsOfUse: https://www.openbanking.org.uk/terms\n",
  );
  const split = (count: number, b: number) => {
    const per = Math.ceil(count / brands);
    return [b * per, Math.min(count, (b + 1) * per)] as const;
  };
  for (let b = 0; b < brands; b++) {
    const brandName = `Synthetic Brand ${b}`;
    const slug = `synthetic-brand-${b}`;
    const range = (count: number) => {
      const [start, end] = split(count, b);
      return Array.from({ length: Math.max(0, end - start) }, (_, i) => start + i);
    };
    // Simple and full personal current accounts share a brand folder, in files of their own.
    const parts = { perFile: RECORDS_PER_FILE, prefix: "part" };
    const full = { perFile: FULL_PRODUCTS_PER_FILE, prefix: "full" };
    type List = [folder: string, key: string, records: unknown[], files: typeof parts];
    const lists: List[] = [
      ["branches", "Branch", range(sizes.branches).map((n) => branch(n, rnd)), parts],
      ["atms", "ATM", range(sizes.atms).map((n) => atm(n, rnd)), parts],
      ["personal-current-accounts", "PCA", range(sizes.products).map((n) => product(n)), parts],
      ...(templates && sizes.fullProducts
        ? productLists(templates, sizes.fullProducts, range).map(([folder, key, records]): List => [
            folder,
            key,
            records,
            full,
          ])
        : []),
    ];
    for (const [folder, key, records, files] of lists) {
      if (records.length === 0) continue;
      await writeBrandFolder(
        join(contentDir, folder, slug),
        "# synthetic",
        brandName,
        key,
        records,
        files,
      );
    }
  }
  for (const dataset of ["service-metrics-pca", "service-metrics-bca"]) {
    await mkdir(join(contentDir, dataset), { recursive: true });
    for (let b = 0; b < sizes.metricsBrands; b++) {
      await writeFile(
        join(contentDir, dataset, `synthetic-brand-${String(b).padStart(2, "0")}.yaml`),
        stringify(metricsBrand(b), { lineWidth: 0 }),
      );
    }
  }
}
