package vir;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.verapdf.gf.foundry.VeraGreenfieldFoundryProvider;
import org.verapdf.pdfa.Foundries;
import org.verapdf.pdfa.PDFAParser;
import org.verapdf.pdfa.PDFAValidator;
import org.verapdf.pdfa.VeraPDFFoundry;
import org.verapdf.pdfa.flavours.PDFAFlavour;
import org.verapdf.pdfa.results.TestAssertion;
import org.verapdf.pdfa.results.ValidationResult;
import org.verapdf.pdfa.validation.profiles.Rule;
import org.verapdf.pdfa.validation.profiles.RuleId;
import org.verapdf.pdfa.validation.validators.ValidatorConfig;
import org.verapdf.pdfa.validation.validators.ValidatorFactory;

/**
 * Checks PDF files against PDF/UA-1 with veraPDF's validation library (the Greenfield parser) and
 * prints one JSON object per file on stdout, one per line:
 *
 * <pre>{"file":"a.pdf","compliant":false,"flavour":"ua1","failures":[{"clause":"7.1","test":10,
 *   "description":"...","message":"...","count":3,"sample":"root/document[0]/..."}]}</pre>
 *
 * Failed checks are grouped by rule (clause + test number of ISO 14289-1 / the Matterhorn-based
 * veraPDF profile); count is how many checks of that rule failed, message and sample are the error
 * message and the location of the first failure. A file that cannot be read or parsed prints
 * {"file":...,"error":"..."} and the message on stderr.
 *
 * Exit status: 0 all files compliant, 1 some file is not, 2 usage error or a file could not be
 * parsed.
 */
public final class VirVeraPdf {
    private VirVeraPdf() {}

    public static void main(String[] args) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            System.err.println("usage: java -jar vir-verapdf.jar FILE.pdf [FILE.pdf ...]");
            System.err.println("Validates each file against PDF/UA-1 and prints one JSON object per file.");
            System.exit(2);
        }
        // veraPDF logs parser warnings through java.util.logging; they would drown the JSON's errors.
        Logger.getLogger("").setLevel(Level.SEVERE);
        for (var h : Logger.getLogger("").getHandlers()) h.setLevel(Level.SEVERE);

        VeraGreenfieldFoundryProvider.initialise();
        PDFAFlavour flavour = PDFAFlavour.PDFUA_1;
        // No passed checks recorded, no cap on failures, error messages with their arguments filled
        // in, and the first few failed checks of each rule kept (the count comes from getFailedChecks).
        ValidatorConfig config = ValidatorFactory.createConfig(flavour, flavour, false, -1, false, false,
                Level.SEVERE, 5, true, null, false, false);
        int status = 0;
        StringBuilder out = new StringBuilder();
        try (VeraPDFFoundry foundry = Foundries.defaultInstance()) {
            for (String path : args) {
                out.setLength(0);
                File file = new File(path);
                try {
                    if (!file.isFile()) throw new IllegalArgumentException("no such file");
                    ValidationResult result;
                    try (PDFAParser parser = foundry.createParser(file, flavour);
                         PDFAValidator validator = foundry.createValidator(config)) {
                        result = validator.validate(parser);
                    }
                    write(out, file.getPath(), result);
                    if (!result.isCompliant()) status = Math.max(status, 1);
                } catch (Exception | StackOverflowError e) {
                    String msg = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
                    System.err.println("vir-verapdf: " + path + ": " + msg);
                    out.append("{\"file\":").append(str(path)).append(",\"compliant\":false,\"flavour\":\"ua1\",\"error\":")
                       .append(str(msg)).append(",\"failures\":[]}");
                    status = 2;
                }
                System.out.println(out);
                System.out.flush();
            }
        } catch (Exception e) {
            System.err.println("vir-verapdf: " + e);
            status = 2;
        }
        System.exit(status);
    }

    /** One failed rule: its check count and the first failed assertion. */
    private static final class Group {
        int count;
        TestAssertion first;
    }

    private static void write(StringBuilder out, String path, ValidationResult result) {
        Map<RuleId, Group> groups = new LinkedHashMap<>();
        for (TestAssertion a : result.getTestAssertions()) {
            if (a.getStatus() != TestAssertion.Status.FAILED) continue;
            Group g = groups.computeIfAbsent(a.getRuleId(), k -> new Group());
            if (g.first == null) g.first = a;
            g.count++;
        }
        // The assertions kept may be capped per rule; the failed-check counts are not.
        Map<RuleId, Integer> counts = result.getFailedChecks();
        if (counts != null) {
            counts.forEach((id, n) -> groups.computeIfAbsent(id, k -> new Group()).count = Math.max(n, 0));
        }
        out.append("{\"file\":").append(str(path))
           .append(",\"compliant\":").append(result.isCompliant())
           .append(",\"flavour\":\"ua1\",\"failures\":[");
        boolean firstOut = true;
        for (var e : groups.entrySet()) {
            RuleId id = e.getKey();
            Group g = e.getValue();
            Rule rule = result.getValidationProfile() == null ? null : result.getValidationProfile().getRuleByRuleId(id);
            if (!firstOut) out.append(',');
            firstOut = false;
            out.append("{\"clause\":").append(str(id.getClause()))
               .append(",\"test\":").append(id.getTestNumber())
               .append(",\"description\":").append(str(rule != null ? rule.getDescription() : null))
               .append(",\"message\":").append(str(g.first != null ? g.first.getErrorMessage() : null))
               .append(",\"count\":").append(g.count)
               .append(",\"sample\":").append(str(g.first != null ? sample(g.first) : null))
               .append('}');
        }
        out.append("]}");
    }

    private static String sample(TestAssertion a) {
        String where = a.getLocation() != null ? a.getLocation().getContext() : null;
        String ctx = a.getLocationContext();
        if (where == null || where.isEmpty()) return ctx;
        if (ctx == null || ctx.isEmpty()) return where;
        return where + " " + ctx;
    }

    /** A JSON string literal (or null). */
    static String str(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
