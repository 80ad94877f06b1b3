package dev.zerolayer.bench.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class MachineTest {

    @Test
    void namesTheFirstProcessorsModelFamilyClockAndHypervisor() {
        List<String> cpuinfo = List.of(
                "processor\t: 0",
                "vendor_id\t: AuthenticAMD",
                "cpu family\t: 26",
                "model\t\t: 2",
                "model name\t: AMD EPYC",
                "cpu MHz\t\t: 2596.098",
                "flags\t\t: fpu vme hypervisor lahf_lm",
                "",
                "processor\t: 1",
                "model name\t: Another CPU");

        assertThat(Machine.cpu(cpuinfo)).isEqualTo("AMD EPYC, family 26 model 2, 2596 MHz, virtual");
    }

    @Test
    void bareMetalWithoutClockIsNotCalledVirtual() {
        List<String> cpuinfo = List.of("model name\t: Intel(R) Xeon(R) Gold 6338", "flags\t\t: fpu vme sse");

        assertThat(Machine.cpu(cpuinfo)).isEqualTo("Intel(R) Xeon(R) Gold 6338");
    }

    @Test
    void noModelNameIsUnknown() {
        assertThat(Machine.cpu(List.of("Processor\t: AArch64", ""))).isEqualTo("CPU unknown");
    }
}
