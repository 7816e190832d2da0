using System;
using System.Collections.Generic;
using System.IO;

namespace Serbench.Harness
{
    /// <summary>Thrown while binding a dataset the library cannot represent.</summary>
    public sealed class NotApplicableException : Exception
    {
        public NotApplicableException(string message)
            : base(message)
        {
        }
    }

    /// <summary>A library as `describe` lists it; one subclass per file in src/Libraries.</summary>
    public abstract class Serializer
    {
        public abstract string Name { get; }
        public abstract string Format { get; }
        public abstract string Library { get; }
        public abstract string Version { get; }
        public abstract string[] Labels { get; }

        /// <summary>The assembly files the library adds to an application; none for the platform's own.</summary>
        public virtual string[] Assemblies
        {
            get { return new string[0]; }
        }

        /// <summary>Why a dataset's generated model cannot be represented, or null.</summary>
        public virtual string NotApplicable(DatasetSpec spec)
        {
            return null;
        }

        /// <summary>
        /// Whether user datasets come as the generic value tree (a JToken) rather than as the
        /// classes generated from their types (build/generated).
        /// </summary>
        public virtual bool GenericTree
        {
            get { return false; }
        }

        /// <summary>A codec for one dataset, built outside timing; throws NotApplicableException.</summary>
        public abstract Codec Bind(DatasetSpec spec);
    }

    /// <summary>One serializer bound to one dataset: encodes and decodes one message.</summary>
    public abstract class Codec
    {
        /// <summary>Appends the encoding of one message to the stream.</summary>
        public abstract void Encode(object message, MemoryStream output);

        /// <summary>Reads one message back into native objects.</summary>
        public abstract object Decode(byte[] buffer, int offset, int length);

        /// <summary>The decode the check uses (the copy floor checks through a real reader).</summary>
        public virtual object DecodeForCheck(byte[] buffer, int offset, int length)
        {
            return Decode(buffer, offset, length);
        }

        /// <summary>Called once, outside timing, with the dataset's distinct messages.</summary>
        public virtual void Prepare(List<object> items)
        {
        }

        /// <summary>
        /// The encoded length of a message known before encoding it, or -1: a stream then
        /// frames it in place, with no intermediate copy.
        /// </summary>
        public virtual int KnownLength(object message)
        {
            return -1;
        }
    }
}
