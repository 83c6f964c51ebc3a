import type { filtersZh } from "./filters.zh.ts";

export const filtersEn: Record<keyof typeof filtersZh, string> = {
  "filters.quick": "Quick ranges",
  "filters.today": "Today",
  "filters.yesterday": "Yesterday",
  "filters.7d": "Last 7 days",
  "filters.month": "This month",
  "filters.from": "Date from",
  "filters.to": "To (whole day)",
  "filters.zone": "Dates are in {zone}; “to” includes that whole day.",
  "filters.e_bad_date": "Pick a date (or a date and time).",
  "filters.e_range_reversed": "The end must not be before the start.",
  "filters.e_bad_range": "No such quick range: choose Today, Yesterday, Last 7 days or This month.",
};
