package dev.zerolayer.bench.proxy;

import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;

/** Parses an SVG file as XML (namespace-aware, no external entities): a malformed plot fails the test. */
public final class SvgCheck {

    private SvgCheck() {
    }

    public static Document parse(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(file.toFile());
    }
}
