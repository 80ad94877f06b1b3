package dev.zerolayer.routing.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The providers' published image formulas, image sizes read from real file headers, PDFs by their pages. */
class MediaTokensTest {

    @Test
    void anthropicImagesCostWidthTimesHeightOver750WithinTheLongEdgeAndTheCap() {
        assertThat(MediaTokens.anthropicImage(new ImageSize(200, 200))).isEqualTo(54);
        assertThat(MediaTokens.anthropicImage(new ImageSize(1000, 1000))).isEqualTo(1334);
        assertThat(MediaTokens.anthropicImage(new ImageSize(1092, 1092))).isEqualTo(1590);
        // 3000 x 2000 is first scaled to a 1568 px long edge, then capped at 1,600 tokens
        assertThat(MediaTokens.anthropicImage(new ImageSize(3000, 2000))).isEqualTo(1600);
        assertThat(MediaTokens.anthropicImage(ImageSize.UNKNOWN)).isEqualTo(1600);
    }

    @Test
    void openAiImagesCost85Plus170PerTileAfterTheTwoResizes() {
        assertThat(MediaTokens.openAiImage(new ImageSize(1024, 1024), false)).isEqualTo(765);
        assertThat(MediaTokens.openAiImage(new ImageSize(2048, 4096), false)).isEqualTo(1105);
        assertThat(MediaTokens.openAiImage(new ImageSize(4096, 4096), true)).isEqualTo(85);
        assertThat(MediaTokens.openAiImage(new ImageSize(100, 100), false)).isEqualTo(255);
        assertThat(MediaTokens.openAiImage(ImageSize.UNKNOWN, false)).isEqualTo(1445);
    }

    @Test
    void readsTheSizeOfPngGifWebpAndJpegHeaders() {
        byte[] png = Base64.getDecoder().decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");
        assertThat(ImageSize.of(png)).isEqualTo(new ImageSize(1, 1));
        assertThat(ImageSize.ofBase64("data:image/png;base64," + Base64.getEncoder().encodeToString(png)))
                .isEqualTo(new ImageSize(1, 1));
        byte[] gif = {'G', 'I', 'F', '8', '9', 'a', 0x40, 0x01, (byte) 0xF0, 0x00, 0, 0};
        assertThat(ImageSize.of(gif)).isEqualTo(new ImageSize(320, 240));
        byte[] webp = new byte[30];
        System.arraycopy("RIFF\0\0\0\0WEBPVP8X".getBytes(StandardCharsets.ISO_8859_1), 0, webp, 0, 16);
        webp[24] = (byte) 0xFF;
        webp[25] = 0x03;
        webp[27] = (byte) 0xDF;
        webp[28] = 0x01;
        assertThat(ImageSize.of(webp)).isEqualTo(new ImageSize(1024, 480));
        // JPEG: SOI, an APP0 segment, then a baseline frame header 640 wide, 480 high
        byte[] jpeg = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0x00, 0x04, 0x00, 0x00,
                (byte) 0xFF, (byte) 0xC0, 0x00, 0x11, 0x08, 0x01, (byte) 0xE0, 0x02, (byte) 0x80, 0x03};
        assertThat(ImageSize.of(jpeg)).isEqualTo(new ImageSize(640, 480));
        assertThat(ImageSize.of("not an image".getBytes(StandardCharsets.US_ASCII))).isEqualTo(ImageSize.UNKNOWN);
        assertThat(ImageSize.ofBase64("%%%")).isEqualTo(ImageSize.UNKNOWN);
    }

    @Test
    void aPdfCostsItsPages() {
        String pdf = "%PDF-1.4\n1 0 obj << /Type /Pages /Count 2 >>\n2 0 obj << /Type /Page >>\n"
                + "3 0 obj << /Type/Page >>\n%%EOF";
        String base64 = Base64.getEncoder().encodeToString(pdf.getBytes(StandardCharsets.US_ASCII));
        assertThat(MediaTokens.pdf(base64)).isEqualTo(2 * MediaTokens.PDF_PAGE_TOKENS);
        assertThat(MediaTokens.pdf(null)).isEqualTo(MediaTokens.PDF_PAGE_TOKENS);
    }

    @Test
    void aPromptsCountSeesItsDefinitionsAndCountedTokens() {
        TokenCounter counter = TokenCounter.defaultCounter();
        PromptParts plain = PromptParts.ofTexts(List.of("", "What is the weather?"));
        PromptParts full = new PromptParts(List.of("", "What is the weather?"), 2,
                List.of("{\"name\":\"get_weather\",\"description\":\"the weather in a city\"}"), 1600);
        assertThat(counter.count(full) - counter.count(plain)).isGreaterThan(1600 + 8);
        assertThat(counter.encode(full).tokenCount()).isEqualTo(counter.count(full));
        assertThat(counter.encode(full).ids()).isEqualTo(counter.encode(plain).ids());
    }
}
