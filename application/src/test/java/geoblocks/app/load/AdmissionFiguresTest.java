package geoblocks.app.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AdmissionFiguresTest {
    private static final String METRICS = String.join("\n",
            "# HELP geoblocks_admission_admitted_total Client requests given transfer memory",
            "# TYPE geoblocks_admission_admitted_total counter",
            "geoblocks_admission_admitted_total{wait=\"none\"} 50.0",
            "geoblocks_admission_admitted_total{wait=\"queued\"} 7.0",
            "geoblocks_admission_wait_seconds_total 3.5",
            "geoblocks_admission_max_wait_seconds 0.9",
            "geoblocks_admission_refused_total{reason=\"deadline\"} 2.0",
            "geoblocks_admission_refused_total{reason=\"queue_full\"} 1.0",
            "geoblocks_admission_refused_total{reason=\"too_large\"} 0.0",
            "geoblocks_admission_waiting 4.0",
            "geoblocks_memory_budget_used_bytes 100.0", "");

    @Test
    void parse_readsTheAdmissionCounters_andSinceSubtractsAnEarlierReading() {
        AdmissionFigures after = AdmissionFigures.parse(METRICS);
        assertEquals(new AdmissionFigures(50, 7, 3.5, 0.9, 2, 1, ""), after);
        AdmissionFigures before = new AdmissionFigures(10, 2, 1.0, 0.5, 1, 0, "");
        assertEquals(new AdmissionFigures(40, 5, 2.5, 0.9, 1, 1, ""), after.since(before));
    }

    @Test
    void parse_ofANodeWithoutTheQueue_isZero() {
        assertEquals(new AdmissionFigures(0, 0, 0, 0, 0, 0, ""), AdmissionFigures.parse("geoblocks_files 3.0\n"));
    }
}
