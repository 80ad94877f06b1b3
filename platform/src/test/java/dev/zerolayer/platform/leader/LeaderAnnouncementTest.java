package dev.zerolayer.platform.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

class LeaderAnnouncementTest {

    @Test
    void readsBackWhatItWritesAReplicaIdWithASpaceIncluded() {
        LeaderAnnouncement announced = new LeaderAnnouncement(42, "fallback 0", URI.create("http://10.1.2.3:18084"));

        assertThat(LeaderAnnouncement.parse(announced.encode())).contains(announced);
    }

    @Test
    void findsNoneInAnEmptyOrForeignOrBrokenCommit() {
        assertThat(LeaderAnnouncement.parse(null)).isEmpty();
        assertThat(LeaderAnnouncement.parse("")).isEmpty();
        assertThat(LeaderAnnouncement.parse("some other tool's metadata")).isEmpty();
        assertThat(LeaderAnnouncement.parse("zl-leader/1 x http://h:1 r")).isEmpty();
        assertThat(LeaderAnnouncement.parse("zl-leader/1 3 relative/path r")).isEmpty();
        assertThat(LeaderAnnouncement.parse("zl-leader/1 3 http://h:1")).isEmpty();
    }

    @Test
    void refusesABlankReplicaOrARelativeUrl() {
        assertThatThrownBy(() -> new LeaderAnnouncement(1, " ", URI.create("http://h:1")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LeaderAnnouncement(1, "r", URI.create("/v1")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
