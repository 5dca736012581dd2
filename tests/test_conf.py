"""wodcombat/conf.py keeps what it read of the host's settings (issue 32: a setting left out
cost ~2.5 us a read, several reads a fight command) and reads a setting again when a test
changes it."""

from django.test import SimpleTestCase, override_settings

from wodcombat import conf


class TestSettingsKept(SimpleTestCase):
    def test_a_setting_left_out_answers_its_default_then_the_override(self):
        self.assertEqual(conf.get("WODCOMBAT_RELAY"), "summary")  # read and kept
        with override_settings(WODCOMBAT_RELAY="turns"):
            self.assertEqual(conf.get("WODCOMBAT_RELAY"), "turns")
        self.assertEqual(conf.get("WODCOMBAT_RELAY"), "summary")

    def test_a_setting_the_host_set_follows_the_override(self):
        self.assertEqual(conf.get("WODCOMBAT_MAX_OUTPUT"), 16000)
        with override_settings(WODCOMBAT_MAX_OUTPUT=500):
            self.assertEqual(conf.get("WODCOMBAT_MAX_OUTPUT"), 500)
        self.assertEqual(conf.get("WODCOMBAT_MAX_OUTPUT"), 16000)

    def test_a_bad_value_is_still_refused_after_a_good_one_was_kept(self):
        self.assertEqual(conf.relay_kind(), "summary")
        with override_settings(WODCOMBAT_RELAY="everything"):
            with self.assertRaises(conf.SettingError):
                conf.relay_kind()
