package dev.zerolayer.complexity.web;

import dev.zerolayer.complexity.calibration.Calibration;
import dev.zerolayer.complexity.calibration.Calibrator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /v1/complexity/calibration}: the window's bands, tier mix, fallback rates and the threshold proposal. */
@RestController
public class CalibrationController {

    private final Calibration calibration;

    public CalibrationController(Calibration calibration) {
        this.calibration = calibration;
    }

    @GetMapping("/v1/complexity/calibration")
    public Map<String, Object> calibration() {
        Calibrator.Report report = calibration.report();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("window", calibration.window().toString());
        body.put("decisions", report.decisions());
        body.put("fallbacks", report.fallbacks());
        body.put("fallbackRate", report.fallbackRate());
        body.put("targetFallbackRate", report.targetFallbackRate());
        body.put("tierMix", report.tierMix());
        body.put("fallbackReasons", report.fallbackReasons());
        body.put("bands", report.bands());
        body.put("proposal", report.proposal());
        body.put("applied", false);
        return body;
    }
}
