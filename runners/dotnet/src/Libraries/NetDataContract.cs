using System.Runtime.Serialization;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>
    /// NetDataContractSerializer (text XML carrying CLR type and assembly names): the platform's
    /// own type-faithful format; reading untrusted bytes instantiates the types they name.
    /// </summary>
    public sealed class NetDataContract : Serializer
    {
        public override string Name { get { return "netdatacontractserializer"; } }
        public override string Format { get { return "xml"; } }
        public override string Library { get { return "NetDataContractSerializer"; } }
        public override string Version { get { return Describe.PlatformVersion(typeof(NetDataContractSerializer)); } }
        public override string[] Labels { get { return new[] { "text", "schemaless", "reflective", "copying-decode", "map-layout", "platform-native", "unsafe-untrusted-input", "enum-as-name", "runtime-names" }; } }

        public override Codec Bind(DatasetSpec spec)
        {
            var d = new NetDataContractSerializer();
            return new StreamCodec((o, s) => d.WriteObject(s, o), s => d.ReadObject(s));
        }
    }
}
