package dev.zerolayer.routing.tokens.template;

import java.time.ZonedDateTime;

/** Python's datetime.strftime for the codes chat templates use (%d %m %Y %y %b %B %a %A %H %I %p %M %S %j %e %%); others are refused. */
final class Strftime {
    private static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July",
        "August", "September", "October", "November", "December"};
    private static final String[] DAYS = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
        "Sunday"};

    private Strftime() {
    }

    static String format(ZonedDateTime t, String fmt, int line) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < fmt.length(); i++) {
            char c = fmt.charAt(i);
            if (c != '%' || i + 1 >= fmt.length()) {
                if (c == '%') {
                    throw new TemplateException("unsupported: trailing % in strftime format", line);
                }
                sb.append(c);
                continue;
            }
            char code = fmt.charAt(++i);
            switch (code) {
                case 'd' -> pad(sb, t.getDayOfMonth(), 2);
                case 'e' -> {
                    int d = t.getDayOfMonth();
                    sb.append(d < 10 ? " " : "").append(d);
                }
                case 'm' -> pad(sb, t.getMonthValue(), 2);
                case 'Y' -> pad(sb, t.getYear(), 4);
                case 'y' -> pad(sb, t.getYear() % 100, 2);
                case 'b' -> sb.append(MONTHS[t.getMonthValue() - 1], 0, 3);
                case 'B' -> sb.append(MONTHS[t.getMonthValue() - 1]);
                case 'a' -> sb.append(DAYS[t.getDayOfWeek().getValue() - 1], 0, 3);
                case 'A' -> sb.append(DAYS[t.getDayOfWeek().getValue() - 1]);
                case 'H' -> pad(sb, t.getHour(), 2);
                case 'I' -> pad(sb, t.getHour() % 12 == 0 ? 12 : t.getHour() % 12, 2);
                case 'p' -> sb.append(t.getHour() < 12 ? "AM" : "PM");
                case 'M' -> pad(sb, t.getMinute(), 2);
                case 'S' -> pad(sb, t.getSecond(), 2);
                case 'j' -> pad(sb, t.getDayOfYear(), 3);
                case '%' -> sb.append('%');
                default -> throw new TemplateException("unsupported strftime code %" + code, line);
            }
        }
        return sb.toString();
    }

    private static void pad(StringBuilder sb, int v, int width) {
        String s = Integer.toString(v);
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        sb.append(s);
    }
}
