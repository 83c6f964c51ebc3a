// A browser's User-Agent as a person reads it: "Chrome 131 · Windows". The common browsers and
// systems only, in the order that tells them apart (Edge and Opera also say Chrome, Chrome also
// says Safari, iOS also says Mac OS X); anything else shows its first word. The raw string stays
// in the element's title.
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, "Edge"],
  [/\bOPR\/(\d+)/, "Opera"],
  [/\bSamsungBrowser\/(\d+)/, "Samsung Internet"],
  [/\bMicroMessenger\/(\d+(?:\.\d+)?)/, "WeChat"],
  [/\bM?QQBrowser\/(\d+)/, "QQ Browser"],
  [/\bUCBrowser\/(\d+)/, "UC Browser"],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, "Firefox"],
  [/\b(?:HeadlessChrome|Chrome|CriOS)\/(\d+)/, "Chrome"],
  [/\bVersion\/(\d+(?:\.\d+)?)[^)]*\bSafari\//, "Safari"],
  [/^curl\/(\S+)/, "curl"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bWindows NT\b/, "Windows"],
  [/\b(?:iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\b(?:Macintosh|Mac OS X)\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

/** "Chrome 131 · Windows"; "" for no user agent. */
export function userAgentShort(ua: string): string {
  if (!ua) return "";
  let browser = "";
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua);
    if (m) {
      browser = `${name} ${m[1]}`;
      break;
    }
  }
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? "";
  if (!browser && !system) return ua.split(/[\s/]/)[0]!.slice(0, 40);
  return [browser, system].filter(Boolean).join(" · ");
}
