package rtlib

// sizeClasses are the Go runtime's small-object size classes
// (runtime/sizeclasses.go): a small allocation occupies the smallest
// class that holds it, which is what runtime/metrics counts.
var sizeClasses = [...]int64{
	8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224,
	240, 256, 288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768,
	896, 1024, 1152, 1280, 1408, 1536, 1792, 2048, 2304, 2688, 3072, 3200,
	3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728,
	10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760,
	24576, 27264, 28672, 32768,
}

// pageSize is the runtime's page: large objects are whole pages.
const pageSize = 8192

// roundSize returns the heap bytes an allocation of n bytes occupies.
// Tiny objects (under 16 bytes, no pointers) share 16-byte blocks; they
// are counted at their own size.
func roundSize(n int64) int64 {
	switch {
	case n <= 0:
		return 0
	case n < 16:
		return n
	case n <= 32768:
		lo, hi := 0, len(sizeClasses)-1
		for lo < hi {
			m := (lo + hi) / 2
			if sizeClasses[m] >= n {
				hi = m
			} else {
				lo = m + 1
			}
		}
		return sizeClasses[lo]
	}
	return (n + pageSize - 1) &^ (pageSize - 1)
}
