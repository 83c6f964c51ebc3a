// The date part of every filter (date-filter.tsx): quick ranges, the zone note, date problems.
export const filtersZh = {
  "filters.quick": "快捷范围",
  "filters.today": "今天",
  "filters.yesterday": "昨天",
  "filters.7d": "近 7 天",
  "filters.month": "本月",
  "filters.from": "日期从",
  "filters.to": "至（含当天）",
  "filters.zone": "日期按时区 {zone} 计算；“至”包含那一整天。",
  "filters.e_bad_date": "请选择一个日期（或日期和时间）。",
  "filters.e_range_reversed": "结束日期不能早于开始日期。",
  "filters.e_bad_range": "没有这个快捷范围：可选今天、昨天、近 7 天、本月。",
} as const;
