// media-chrome's elements and its own control labels (play, pause, seek) in the languages it ships, as the
// video player loads them (Italian falls back to English).
import "media-chrome";
import "media-chrome/lang/de";
import "media-chrome/lang/es";
import "media-chrome/lang/fr";
import "media-chrome/lang/pt";
