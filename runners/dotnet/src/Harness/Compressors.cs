using System;
using System.IO;
using System.Runtime.InteropServices;

namespace Serbench.Harness
{
    /// <summary>
    /// The protocol's codecs through the system's own C libraries (zlib1g, libzstd1,
    /// liblz4-1) by P/Invoke: zlib (RFC 1950) level 6, zstd level 3, lz4 frame format at
    /// its default level with the content size in the header. Output goes to a reused array.
    /// </summary>
    public abstract class Compressor
    {
        public static readonly string[] Names = { "zlib", "zstd", "lz4" };

        public static Compressor Create(string name)
        {
            switch (name)
            {
                case "zlib":
                    return new Zlib();
                case "zstd":
                    return new Zstd();
                case "lz4":
                    return new Lz4();
                default:
                    return null;
            }
        }

        /// <summary>Compresses src[off, off+len) into dst (grown when short); returns the length.</summary>
        public abstract int Compress(byte[] src, int off, int len, ref byte[] dst);

        /// <summary>Decompresses into dst (grown when short); returns the length.</summary>
        public abstract int Decompress(byte[] src, int off, int len, ref byte[] dst);

        protected static void Ensure(ref byte[] dst, long size)
        {
            if (dst == null || dst.Length < size)
                dst = new byte[Math.Max(size, dst == null ? 0 : dst.Length * 2L)];
        }
    }

    sealed unsafe class Zlib : Compressor
    {
        const string Lib = "libz.so.1";

        [DllImport(Lib)]
        static extern UIntPtr compressBound(UIntPtr sourceLen);

        [DllImport(Lib)]
        static extern int compress2(byte* dest, ref UIntPtr destLen, byte* source, UIntPtr sourceLen, int level);

        [DllImport(Lib)]
        static extern int uncompress(byte* dest, ref UIntPtr destLen, byte* source, UIntPtr sourceLen);

        public override int Compress(byte[] src, int off, int len, ref byte[] dst)
        {
            Ensure(ref dst, (long)compressBound((UIntPtr)len));
            var n = (UIntPtr)dst.Length;
            int rc;
            fixed (byte* s = src)
            fixed (byte* d = dst)
                rc = compress2(d, ref n, s + off, (UIntPtr)len, 6);
            if (rc != 0)
                throw new IOException("zlib compress2: " + rc);
            return (int)n;
        }

        public override int Decompress(byte[] src, int off, int len, ref byte[] dst)
        {
            Ensure(ref dst, (long)len * 4 + 64);
            while (true)
            {
                var n = (UIntPtr)dst.Length;
                int rc;
                fixed (byte* s = src)
                fixed (byte* d = dst)
                    rc = uncompress(d, ref n, s + off, (UIntPtr)len);
                if (rc == 0)
                    return (int)n;
                if (rc != -5) // Z_BUF_ERROR: the output did not fit
                    throw new IOException("zlib uncompress: " + rc);
                dst = new byte[dst.Length * 2];
            }
        }
    }

    sealed unsafe class Zstd : Compressor
    {
        const string Lib = "libzstd.so.1";

        [DllImport(Lib)]
        static extern IntPtr ZSTD_createCCtx();

        [DllImport(Lib)]
        static extern IntPtr ZSTD_createDCtx();

        [DllImport(Lib)]
        static extern UIntPtr ZSTD_compressBound(UIntPtr srcSize);

        [DllImport(Lib)]
        static extern uint ZSTD_isError(UIntPtr code);

        [DllImport(Lib)]
        static extern UIntPtr ZSTD_compressCCtx(IntPtr cctx, byte* dst, UIntPtr cap, byte* src, UIntPtr size, int level);

        [DllImport(Lib)]
        static extern ulong ZSTD_getFrameContentSize(byte* src, UIntPtr size);

        [DllImport(Lib)]
        static extern UIntPtr ZSTD_decompressDCtx(IntPtr dctx, byte* dst, UIntPtr cap, byte* src, UIntPtr size);

        readonly IntPtr cctx = ZSTD_createCCtx();
        readonly IntPtr dctx = ZSTD_createDCtx();

        public override int Compress(byte[] src, int off, int len, ref byte[] dst)
        {
            Ensure(ref dst, (long)ZSTD_compressBound((UIntPtr)len));
            UIntPtr n;
            fixed (byte* s = src)
            fixed (byte* d = dst)
                n = ZSTD_compressCCtx(cctx, d, (UIntPtr)dst.Length, s + off, (UIntPtr)len, 3);
            if (ZSTD_isError(n) != 0)
                throw new IOException("zstd compress failed");
            return (int)n;
        }

        public override int Decompress(byte[] src, int off, int len, ref byte[] dst)
        {
            ulong size;
            fixed (byte* s = src)
                size = ZSTD_getFrameContentSize(s + off, (UIntPtr)len);
            if (size > int.MaxValue)
                throw new IOException("zstd frame without content size");
            Ensure(ref dst, (long)size);
            UIntPtr n;
            fixed (byte* s = src)
            fixed (byte* d = dst)
                n = ZSTD_decompressDCtx(dctx, d, (UIntPtr)dst.Length, s + off, (UIntPtr)len);
            if (ZSTD_isError(n) != 0)
                throw new IOException("zstd decompress failed");
            return (int)n;
        }
    }

    sealed unsafe class Lz4 : Compressor
    {
        const string Lib = "liblz4.so.1";

        // LZ4F_preferences_t (lz4frame.h, 1.9): frameInfo, compressionLevel, autoFlush,
        // favorDecSpeed, reserved[3].
        [StructLayout(LayoutKind.Sequential)]
        struct Preferences
        {
            public int BlockSizeId;
            public int BlockMode;
            public int ContentChecksum;
            public int FrameType;
            public ulong ContentSize;
            public uint DictId;
            public int BlockChecksum;
            public int CompressionLevel;
            public uint AutoFlush;
            public uint FavorDecSpeed;
            public uint Reserved0;
            public uint Reserved1;
            public uint Reserved2;
        }

        [DllImport(Lib)]
        static extern UIntPtr LZ4F_compressFrameBound(UIntPtr srcSize, ref Preferences prefs);

        [DllImport(Lib)]
        static extern UIntPtr LZ4F_compressFrame(byte* dst, UIntPtr cap, byte* src, UIntPtr size, ref Preferences prefs);

        [DllImport(Lib)]
        static extern uint LZ4F_isError(UIntPtr code);

        [DllImport(Lib)]
        static extern UIntPtr LZ4F_createDecompressionContext(out IntPtr ctx, uint version);

        [DllImport(Lib)]
        static extern void LZ4F_resetDecompressionContext(IntPtr ctx);

        [DllImport(Lib)]
        static extern UIntPtr LZ4F_decompress(IntPtr ctx, byte* dst, ref UIntPtr dstSize, byte* src, ref UIntPtr srcSize, IntPtr options);

        readonly IntPtr dctx;

        public Lz4()
        {
            if (LZ4F_isError(LZ4F_createDecompressionContext(out dctx, 100)) != 0)
                throw new IOException("lz4 decompression context");
        }

        public override int Compress(byte[] src, int off, int len, ref byte[] dst)
        {
            var prefs = new Preferences { ContentSize = (ulong)len };
            Ensure(ref dst, (long)LZ4F_compressFrameBound((UIntPtr)len, ref prefs));
            UIntPtr n;
            fixed (byte* s = src)
            fixed (byte* d = dst)
                n = LZ4F_compressFrame(d, (UIntPtr)dst.Length, s + off, (UIntPtr)len, ref prefs);
            if (LZ4F_isError(n) != 0)
                throw new IOException("lz4 compress failed");
            return (int)n;
        }

        public override int Decompress(byte[] src, int off, int len, ref byte[] dst)
        {
            Ensure(ref dst, (long)len * 4 + 64);
            LZ4F_resetDecompressionContext(dctx);
            int read = 0;
            int written = 0;
            while (true)
            {
                var outSize = (UIntPtr)(dst.Length - written);
                var inSize = (UIntPtr)(len - read);
                UIntPtr hint;
                fixed (byte* s = src)
                fixed (byte* d = dst)
                    hint = LZ4F_decompress(dctx, d + written, ref outSize, s + off + read, ref inSize, IntPtr.Zero);
                if (LZ4F_isError(hint) != 0)
                    throw new IOException("lz4 decompress failed");
                read += (int)inSize;
                written += (int)outSize;
                if ((ulong)hint == 0)
                    return written;
                if (written == dst.Length)
                {
                    var bigger = new byte[dst.Length * 2];
                    Buffer.BlockCopy(dst, 0, bigger, 0, written);
                    dst = bigger;
                }
                else if (read == len)
                {
                    throw new IOException("lz4 frame truncated");
                }
            }
        }
    }
}
