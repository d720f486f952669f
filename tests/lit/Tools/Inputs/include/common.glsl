#define SCALE 3u
