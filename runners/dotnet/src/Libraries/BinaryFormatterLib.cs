using System.Runtime.Serialization.Formatters.Binary;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>BinaryFormatter ([MS-NRBF]): the platform's own format; deserializing untrusted bytes is unsafe.</summary>
    public sealed class BinaryFormatterLib : Serializer
    {
        public override string Name { get { return "binaryformatter"; } }
        public override string Format { get { return "nrbf"; } }
        public override string Library { get { return "BinaryFormatter"; } }
        public override string Version { get { return Describe.PlatformVersion(typeof(BinaryFormatter)); } }
        public override string[] Labels { get { return new[] { "binary", "schemaless", "reflective", "copying-decode", "platform-native", "unsafe-untrusted-input" }; } }

        public override Codec Bind(DatasetSpec spec)
        {
            var f = new BinaryFormatter();
            return new StreamCodec((o, s) => f.Serialize(s, o), s => f.Deserialize(s));
        }
    }
}
