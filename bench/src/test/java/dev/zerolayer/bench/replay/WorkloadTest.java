package dev.zerolayer.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadTest {

    static List<TraceRequest> trace() {
        List<TraceRequest> rows = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            rows.add(new TraceRequest(i % 3 == 0 ? "code" : "conv", i * 0.1, 200 + (i * 37) % 3000, 1 + i % 50));
        }
        return rows;
    }

    @Test
    void sameSeedSameRequestsOtherSeedOthers() {
        List<SimRequest> a = new Workload(42).build(trace(), List.of());
        List<SimRequest> b = new Workload(42).build(trace(), List.of());
        List<SimRequest> c = new Workload(43).build(trace(), List.of());
        assertThat(a).hasSize(400);
        for (int i = 0; i < a.size(); i++) {
            assertThat(a.get(i).complexity()).isEqualTo(b.get(i).complexity());
            assertThat(a.get(i).blocks()).isEqualTo(b.get(i).blocks());
        }
        assertThat(a.stream().mapToDouble(SimRequest::complexity).sum())
                .isNotEqualTo(c.stream().mapToDouble(SimRequest::complexity).sum());
    }

    @Test
    void templatesScaleWithTheFleetsKvCapacityAndComplexityDoesNotDependOnThem() {
        FleetSpec fleet = FleetSpec.simulatorDefault();
        long kv = 2L * 91_262 + 3 * 9_812 + 3 * 16_901;
        assertThat(Workload.templatesFor(fleet)).isEqualTo((int) Math.ceil(kv / 36.0 / 2));
        assertThat(Workload.templatesFor(FleetSpec.of(4, 4, 4))).isGreaterThan(Workload.templatesFor(fleet));
        ComplexitySource scores = ComplexitySource.empirical(new double[] {0.1, 0.2, 0.7}, "t");
        List<SimRequest> few = new Workload(42, scores, 10).build(trace(), List.of());
        List<SimRequest> many = new Workload(42, scores, 5000).build(trace(), List.of());
        assertThat(few).extracting(SimRequest::complexity).containsExactlyElementsOf(
                many.stream().map(SimRequest::complexity).toList());
        assertThat(few).extracting(SimRequest::complexity).allMatch(c -> c == 0.1 || c == 0.2 || c == 0.7);
        assertThat(few.stream().mapToInt(SimRequest::template).max().orElseThrow()).isLessThan(10);
        assertThat(many.stream().mapToInt(SimRequest::template).distinct().count())
                .isGreaterThan(few.stream().mapToInt(SimRequest::template).distinct().count());
    }

    @Test
    void blocksComplexityAndPrefixesAreConsistent() {
        List<SimRequest> requests = new Workload(42).build(trace(), List.of());
        int continued = 0;
        for (SimRequest r : requests) {
            assertThat(r.blocks()).hasSize(r.contextTokens() / SimRequest.BLOCK_TOKENS);
            assertThat(r.complexity()).isBetween(0.0, 1.0);
            assertThat(r.sharedBlocks()).isLessThan(Math.max(1, r.blocks().length));
            if (r.sharedBlocks() > Workload.TEMPLATE_MAX_BLOCKS) {
                continued++;
            }
        }
        assertThat(continued).as("some requests continue a longer conversation").isPositive();
        SimRequest longest = requests.stream().filter(r -> r.sharedBlocks() > Workload.TEMPLATE_MAX_BLOCKS)
                .findFirst().orElseThrow();
        boolean parentFound = requests.stream().filter(r -> r.id() < longest.id())
                .anyMatch(r -> r.blocks().length == longest.sharedBlocks()
                        && Arrays.equals(r.blocks(), Arrays.copyOf(longest.blocks(), longest.sharedBlocks())));
        assertThat(parentFound).as("a continuation opens with an earlier request's whole prompt").isTrue();
    }

    @Test
    void aLoadSpikeTriplesArrivalsInsideItsWindowOnly() {
        List<SimRequest> requests = new Workload(42).build(trace(), List.<double[]>of(new double[] {10, 20}));
        long inside = requests.stream().filter(r -> r.arrival() >= 10 && r.arrival() < 20).count();
        assertThat(inside).isEqualTo(300);
        assertThat(requests).hasSize(600);
        assertThat(requests.stream().filter(SimRequest::spikeCopy).allMatch(r -> r.arrival() < 20)).isTrue();
        for (int i = 1; i < requests.size(); i++) {
            assertThat(requests.get(i).arrival()).isGreaterThanOrEqualTo(requests.get(i - 1).arrival());
            assertThat(requests.get(i).id()).isEqualTo(i);
        }
    }

    @Test
    void theTraceReaderMergesBothFilesOnOneClock() throws Exception {
        String code = "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:17:03.9799600,4808,10\n"
                + "2023-11-16 18:17:04.5,3180,8\n";
        String conv = "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:17:04.0000000,374,44\n";
        List<AzureTrace.Row> rows = new ArrayList<>(AzureTrace.parse(new StringReader(code), "code", 0));
        rows.addAll(AzureTrace.parse(new StringReader(conv), "conv", 0));
        List<TraceRequest> merged = AzureTrace.merge(rows);
        assertThat(merged).extracting(TraceRequest::source).containsExactly("code", "conv", "code");
        assertThat(merged.get(0).arrivalSeconds()).isZero();
        assertThat(merged.get(1).arrivalSeconds()).isCloseTo(0.02004, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(merged.get(2).contextTokens()).isEqualTo(3180);
        assertThat(AzureTrace.parse(new StringReader(code), "code", 1)).hasSize(1);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> AzureTrace.parse(new StringReader("a,b\n1,2\n"), "code", 0))
                .hasMessageContaining("expected header");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AzureTrace.parse(
                new StringReader("TIMESTAMP,ContextTokens,GeneratedTokens\nnot-a-time,1,2\n"), "conv", 0))
                .hasMessageContaining("conv line 2");
    }
}
