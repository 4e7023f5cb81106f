/** Country dial codes offered by the wizard (about 80 countries); +91 (India) is the default. */
export interface DialCode {
  country: string;
  iso: string;
  code: string;
}

export const DIAL_CODES: DialCode[] = [
  { country: 'India', iso: 'IN', code: '+91' },
  { country: 'United States', iso: 'US', code: '+1' },
  { country: 'United Kingdom', iso: 'GB', code: '+44' },
  { country: 'Afghanistan', iso: 'AF', code: '+93' },
  { country: 'Algeria', iso: 'DZ', code: '+213' },
  { country: 'Argentina', iso: 'AR', code: '+54' },
  { country: 'Australia', iso: 'AU', code: '+61' },
  { country: 'Austria', iso: 'AT', code: '+43' },
  { country: 'Bahrain', iso: 'BH', code: '+973' },
  { country: 'Bangladesh', iso: 'BD', code: '+880' },
  { country: 'Belgium', iso: 'BE', code: '+32' },
  { country: 'Bhutan', iso: 'BT', code: '+975' },
  { country: 'Brazil', iso: 'BR', code: '+55' },
  { country: 'Bulgaria', iso: 'BG', code: '+359' },
  { country: 'Cambodia', iso: 'KH', code: '+855' },
  { country: 'Canada', iso: 'CA', code: '+1' },
  { country: 'Chile', iso: 'CL', code: '+56' },
  { country: 'China', iso: 'CN', code: '+86' },
  { country: 'Colombia', iso: 'CO', code: '+57' },
  { country: 'Croatia', iso: 'HR', code: '+385' },
  { country: 'Czechia', iso: 'CZ', code: '+420' },
  { country: 'Denmark', iso: 'DK', code: '+45' },
  { country: 'Egypt', iso: 'EG', code: '+20' },
  { country: 'Estonia', iso: 'EE', code: '+372' },
  { country: 'Ethiopia', iso: 'ET', code: '+251' },
  { country: 'Finland', iso: 'FI', code: '+358' },
  { country: 'France', iso: 'FR', code: '+33' },
  { country: 'Germany', iso: 'DE', code: '+49' },
  { country: 'Ghana', iso: 'GH', code: '+233' },
  { country: 'Greece', iso: 'GR', code: '+30' },
  { country: 'Hong Kong', iso: 'HK', code: '+852' },
  { country: 'Hungary', iso: 'HU', code: '+36' },
  { country: 'Iceland', iso: 'IS', code: '+354' },
  { country: 'Indonesia', iso: 'ID', code: '+62' },
  { country: 'Iran', iso: 'IR', code: '+98' },
  { country: 'Iraq', iso: 'IQ', code: '+964' },
  { country: 'Ireland', iso: 'IE', code: '+353' },
  { country: 'Israel', iso: 'IL', code: '+972' },
  { country: 'Italy', iso: 'IT', code: '+39' },
  { country: 'Japan', iso: 'JP', code: '+81' },
  { country: 'Jordan', iso: 'JO', code: '+962' },
  { country: 'Kenya', iso: 'KE', code: '+254' },
  { country: 'Kuwait', iso: 'KW', code: '+965' },
  { country: 'Latvia', iso: 'LV', code: '+371' },
  { country: 'Lebanon', iso: 'LB', code: '+961' },
  { country: 'Lithuania', iso: 'LT', code: '+370' },
  { country: 'Luxembourg', iso: 'LU', code: '+352' },
  { country: 'Malaysia', iso: 'MY', code: '+60' },
  { country: 'Maldives', iso: 'MV', code: '+960' },
  { country: 'Mexico', iso: 'MX', code: '+52' },
  { country: 'Morocco', iso: 'MA', code: '+212' },
  { country: 'Myanmar', iso: 'MM', code: '+95' },
  { country: 'Nepal', iso: 'NP', code: '+977' },
  { country: 'Netherlands', iso: 'NL', code: '+31' },
  { country: 'New Zealand', iso: 'NZ', code: '+64' },
  { country: 'Nigeria', iso: 'NG', code: '+234' },
  { country: 'Norway', iso: 'NO', code: '+47' },
  { country: 'Oman', iso: 'OM', code: '+968' },
  { country: 'Pakistan', iso: 'PK', code: '+92' },
  { country: 'Peru', iso: 'PE', code: '+51' },
  { country: 'Philippines', iso: 'PH', code: '+63' },
  { country: 'Poland', iso: 'PL', code: '+48' },
  { country: 'Portugal', iso: 'PT', code: '+351' },
  { country: 'Qatar', iso: 'QA', code: '+974' },
  { country: 'Romania', iso: 'RO', code: '+40' },
  { country: 'Russia', iso: 'RU', code: '+7' },
  { country: 'Saudi Arabia', iso: 'SA', code: '+966' },
  { country: 'Serbia', iso: 'RS', code: '+381' },
  { country: 'Singapore', iso: 'SG', code: '+65' },
  { country: 'Slovakia', iso: 'SK', code: '+421' },
  { country: 'Slovenia', iso: 'SI', code: '+386' },
  { country: 'South Africa', iso: 'ZA', code: '+27' },
  { country: 'South Korea', iso: 'KR', code: '+82' },
  { country: 'Spain', iso: 'ES', code: '+34' },
  { country: 'Sri Lanka', iso: 'LK', code: '+94' },
  { country: 'Sweden', iso: 'SE', code: '+46' },
  { country: 'Switzerland', iso: 'CH', code: '+41' },
  { country: 'Taiwan', iso: 'TW', code: '+886' },
  { country: 'Tanzania', iso: 'TZ', code: '+255' },
  { country: 'Thailand', iso: 'TH', code: '+66' },
  { country: 'Turkey', iso: 'TR', code: '+90' },
  { country: 'Uganda', iso: 'UG', code: '+256' },
  { country: 'Ukraine', iso: 'UA', code: '+380' },
  { country: 'United Arab Emirates', iso: 'AE', code: '+971' },
  { country: 'Vietnam', iso: 'VN', code: '+84' },
  { country: 'Zimbabwe', iso: 'ZW', code: '+263' },
];

/** Distinct codes, longest first, for splitting a joined phone like +919876543210. */
const CODES_LONGEST_FIRST = [...new Set(DIAL_CODES.map((d) => d.code))].sort((a, b) => b.length - a.length);

/** Splits "+<dial code><10 digits>"; null when the code is not offered or the digits are not 10. */
export function splitPhone(phone: string): { code: string; digits: string } | null {
  const compact = phone.replace(/[\s()-]/g, '');
  for (const code of CODES_LONGEST_FIRST) {
    if (compact.startsWith(code)) {
      const digits = compact.slice(code.length);
      if (/^\d{10}$/.test(digits)) return { code, digits };
    }
  }
  return null;
}
